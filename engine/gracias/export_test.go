package gracias

// PublicCommands is publicCommands, for the external property tests.
var PublicCommands = publicCommands
