import Foundation

/// A fresh folder under the system's temporary directory, removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    // @unchecked: `url` is immutable after init; deinit runs once.
    public let url: URL

    public init(_ label: String = "voicejournal-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Locations in the package checkout, for scripts and fixtures the tests use.
public enum PackagePaths {
    /// The package root (the folder holding Package.swift).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder of built products (`.build/debug`), where `voicejournal` is.
    public static var products: URL {
        // The test bundle lives in the products folder; CommandLine.arguments[0] points into it.
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("voicejournal").path) {
                return url
            }
        }
        return root.appendingPathComponent(".build/debug")
    }
}
