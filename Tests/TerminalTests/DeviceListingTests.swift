import Testing
@testable import VoiceJournalTerminal

/// `devices` as `arecord -L` prints it (the listing `DevicesTests` compares with arecord's).
@Suite struct DeviceListingTests {
    @Test func eachNameIsFollowedByItsDescriptionIndentedByFourSpaces() {
        let lines = DeviceListing.lines([("null", "Discard all samples (playback) or generate zero samples (capture)"),
                                         ("kitchenmic", "voicejournal test microphone"),
                                         ("hw:CARD=PCH,DEV=0", "HDA Intel PCH, ALC3246 Analog\nDirect hardware device without any conversions"),
                                         ("bare", nil)])
        #expect(lines.joined(separator: "\n") + "\n" == """
            null
                Discard all samples (playback) or generate zero samples (capture)
            kitchenmic
                voicejournal test microphone
            hw:CARD=PCH,DEV=0
                HDA Intel PCH, ALC3246 Analog
                Direct hardware device without any conversions
            bare

            """)
    }

    @Test func namesAndDescriptionsFromConfigurationFilesAreEscaped() {
        #expect(DeviceListing.lines([("evil\u{1B}[2J", "line one\n\n\u{7}bell")]) == ["evil\\e[2J", "    line one", "    \\u{7}bell"])
    }
}
