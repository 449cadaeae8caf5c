import ArgumentParser
import Foundation
import VoiceJournalPages
import VoiceJournalSettings

/// `voicejournal mail test ADDRESS`: mail through the config file's `[mail]` server.
struct MailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail", abstract: "Send email through the SMTP server of the config file's [mail] table.",
        subcommands: [MailTest.self])
}

struct MailTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Send a short test message to ADDRESS and print the server's answer.",
        discussion: CommandHelp.mailTest)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The address to send the test message to.") var address: String

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        for line in try await MailTestRun.run(address: address, settings: try global.settings(), environment: environment, now: Now.date()) {
            print(line)
        }
    }
}
