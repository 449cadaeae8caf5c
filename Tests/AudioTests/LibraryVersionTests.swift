import VoiceJournalAudio
import Testing
import VoiceJournalTestSupport

/// The C bindings link and answer: each reports the version Debian's -dev package declares.
@Suite(.onTestThreads) struct AudioLibraryVersionTests {
    @Test func alsaReportsTheVersionPkgConfigDeclares() throws {
        let declared = try runTool("pkg-config", ["--modversion", "alsa"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(AudioLibraryVersions.alsa == declared)
    }

    @Test func libsndfileReportsTheVersionPkgConfigDeclares() throws {
        let declared = try runTool("pkg-config", ["--modversion", "sndfile"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(AudioLibraryVersions.sndfile == "libsndfile-\(declared)")
    }

    @Test func ffmpegAndLibsamplerateReportTheVersionsPkgConfigDeclares() throws {
        let avformat = try runTool("pkg-config", ["--modversion", "libavformat"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(AudioLibraryVersions.avformat == avformat)
        let samplerate = try runTool("pkg-config", ["--modversion", "samplerate"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(AudioLibraryVersions.samplerate.hasPrefix("libsamplerate-\(samplerate)"))
    }
}
