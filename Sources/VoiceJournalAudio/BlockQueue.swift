import Foundation

/// A fixed pool of audio blocks handed from the capture thread to the writer thread.
/// ALSA reads straight into a free block (no copy); the writer hands it back when done.
/// Memory is allocated once, up front: nothing grows while recording.
final class BlockQueue: @unchecked Sendable {
    // @unchecked: every mutable field is touched only while holding `condition`; block memory
    // belongs to exactly one side at a time (free → capture → filled → writer → free).
    private let storage: UnsafeMutablePointer<Int16>
    /// Samples (not frames) one block holds.
    let blockSamples: Int
    let capacity: Int
    private let condition = NSCondition()
    private var free: [Int]
    /// A ring of filled blocks, oldest at `filledHead`.
    private var filled: [(index: Int, frames: Int)]
    private var filledHead = 0
    private var filledCount = 0
    private var closed = false
    private var captureWaiting = false
    private var writerWaiting = false
    /// Once out of free blocks, capture waits until this many are free again: resuming on
    /// every single block would cost two thread switches per block.
    private let refill: Int
    /// Times the capture side found no free block and had to wait for the writer.
    private(set) var waitsForSpace = 0

    init(blocks: Int, samplesPerBlock: Int) {
        capacity = max(blocks, 2)
        refill = max(capacity / 4, 1)
        blockSamples = samplesPerBlock
        storage = .allocate(capacity: capacity * samplesPerBlock)
        storage.initialize(repeating: 0, count: capacity * samplesPerBlock)
        free = Array((0..<capacity).reversed())
        filled = Array(repeating: (0, 0), count: capacity)
    }

    deinit { storage.deallocate() }

    /// The memory of block `index`.
    func samples(_ index: Int) -> UnsafeMutablePointer<Int16> { storage + index * blockSamples }

    /// A free block for the capture side. When the writer is a whole pool behind, this waits
    /// instead of dropping audio: a live device then overruns (counted by the device), and an
    /// unpaced source (a file) simply slows to the writer's speed and loses nothing.
    func takeFree() -> Int {
        condition.lock()
        defer { condition.unlock() }
        if free.isEmpty {
            waitsForSpace += 1
            captureWaiting = true
            while free.count < refill { condition.wait() }
            captureWaiting = false
        }
        return free.removeLast()
    }

    /// Passes a block holding `frames` frames to the writer side.
    func pushFilled(_ index: Int, frames: Int) {
        condition.lock()
        filled[(filledHead + filledCount) % capacity] = (index, frames)
        filledCount += 1
        if writerWaiting { condition.broadcast() }
        condition.unlock()
    }

    /// No more blocks will come; the writer drains what is queued, then `takeFilled` returns nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The oldest filled block, waiting for one; nil once closed and drained.
    func takeFilled() -> (index: Int, frames: Int)? {
        condition.lock()
        defer { condition.unlock() }
        while filledCount == 0 && !closed {
            writerWaiting = true
            condition.wait()
            writerWaiting = false
        }
        guard filledCount > 0 else { return nil }
        let block = filled[filledHead]
        filledHead = (filledHead + 1) % capacity
        filledCount -= 1
        return block
    }

    /// Returns a block to the pool once its audio has been used.
    func giveBack(_ index: Int) {
        condition.lock()
        free.append(index)
        if captureWaiting && free.count >= refill { condition.broadcast() }
        condition.unlock()
    }
}
