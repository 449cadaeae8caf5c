import Playback

// Temporary: `play`'s own command defines this (Commands/Play.swift); delete this file then.
func playTarget(_ target: PlayTarget, at: Double?, to: Double?, device: String, json: Bool, global: GlobalOptions) async throws {
    throw CLIError.failure("play is not built yet")
}
