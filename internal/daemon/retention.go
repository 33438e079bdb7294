package daemon

// budgetWindow is the longest window of any budget bucket (budget.go): a
// budget row older than it counts towards no limit any more, and the
// sweeper's retention drops it (sweeps.Sweeper.Retain).
const budgetWindow = max(answersWindow, lobbyWindow, exchangeWindow, breakerTellOnce, inviteWindow, inviteWeek)
