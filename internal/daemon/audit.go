package daemon

// auditAction is what a game's audit log keeps of an act of a player's
// or of the service's own (store.Audit.Action); an admin's acts are
// AdminActs. The words are stored: changing one changes what older
// audit rows are read as.
type auditAction string

const (
	auditStart   auditAction = "start"   // everyone joined: the game began
	auditDecline auditAction = "decline" // a player declined the invitation
	auditResign  auditAction = "resign"  // a player resigned
	auditBack    auditAction = "back"    // a seat came back from autopilot
)
