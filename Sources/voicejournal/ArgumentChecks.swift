import ArgumentParser

// Checks argument-parser cannot express: --limit and --jobs (words that look like options are
// caught before parsing: DashedWords, in VoiceJournalSettings).

/// `--limit` as every listing takes it: a whole number of at least 1. The option is declared
/// with `parsing: .unconditional`, so `--limit -1` reaches this check instead of being read
/// as an unknown option ("missing value").
func validateLimit(_ limit: Int?) throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be a whole number of at least 1, not \(limit)") }
}

/// `--jobs` as `transcribe` and `queue run` take it: 1 to 64 uploads at a time.
func validateJobs(_ jobs: Int) throws {
    guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64, not \(jobs)") }
}

/// `--jobs`'s help, written once for every command that runs uploads.
enum JobsHelp {
    /// `transcribe` and `queue run`.
    static let uploads = ArgumentHelp("Uploads at a time" + detail)
    /// `serve`, where uploads run only with `--transcribe`.
    static let withTranscribe = ArgumentHelp("With --transcribe: uploads at a time" + detail)

    private static let detail = " (default: each config-file endpoint's concurrency, else 4); with several endpoints, a cap on them all, the preferred first."
}
