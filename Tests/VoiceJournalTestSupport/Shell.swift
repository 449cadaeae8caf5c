import Foundation

/// Runs a helper program (espeak-ng, sox, python) for fixtures; throws with its stderr if it fails.
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { $1 }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read before waiting so a chatty tool cannot fill the pipe and stall.
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw ToolFailure(command: ([executable] + arguments).joined(separator: " "),
                          status: process.terminationStatus, stderr: String(decoding: errors, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
}

/// A fixture tool that exited non-zero.
public struct ToolFailure: Error, CustomStringConvertible {
    public let command: String
    public let status: Int32
    public let stderr: String
    public var description: String { "\(command) exited \(status): \(stderr)" }
}
