/// Seconds as a whole number of frames at `rate` (rounded), for any number a row, an answer
/// or a flag can hold: not a number or negative is 0, and past `largest` it is `largest`.
/// `Int64(seconds * rate)` traps on a time of 9e15 s at 16 kHz; a stored time from outside
/// must never crash a command, and callers clamp to the audio's length anyway.
package func frameCount(seconds: Double, rate: Double) -> Int64 {
    let frames = (seconds * rate).rounded()
    guard frames > 0 else { return 0 }  // NaN too
    return frames < Double(FrameCount.largest) ? Int64(frames) : FrameCount.largest
}

package enum FrameCount {
    /// The most frames a conversion gives: far past any audio (a million years at 192 kHz),
    /// far from `Int64.max`, so sums and products of a few of them cannot overflow either.
    package static let largest: Int64 = 1 << 53
}
