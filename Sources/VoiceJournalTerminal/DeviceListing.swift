/// PCM devices as `arecord -L` / `aplay -L` list them: each name on its own line, its description's
/// lines below it indented by four spaces. Names and descriptions come from ALSA's
/// configuration files and are escaped.
package enum DeviceListing {
    /// The listing's lines, in the order given.
    package static func lines(_ devices: [(name: String, description: String?)]) -> [String] {
        devices.flatMap { device in
            [TerminalText.escaped(device.name)]
                + (device.description ?? "").split(separator: "\n", omittingEmptySubsequences: true)
                    .map { "    " + TerminalText.escaped(String($0)) }
        }
    }
}
