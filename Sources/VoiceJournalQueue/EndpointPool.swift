import Foundation

/// The servers a run uploads to (each with its workers), and why each server of the config
/// file left out of the run was, one sentence each for the user.
public struct EndpointPool: Sendable {
    public var endpoints: [PoolEndpoint]
    /// Why each endpoint left out of the run was (no key set, not an http(s) URL, a repeat).
    public var leftOut: [String]

    public init(endpoints: [PoolEndpoint], leftOut: [String] = []) {
        self.endpoints = endpoints
        self.leftOut = leftOut
    }

    /// Workers in all: how many uploads the run has at once.
    public var workers: Int { endpoints.reduce(0) { $0 + $1.workers } }
}
