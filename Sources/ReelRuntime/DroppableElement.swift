/// An item that says whether a `.dropOldest` ``ConsumerQueue`` may discard it under
/// pressure (video frames usually may; audio blocks and end-of-segment markers may not),
/// and how many bytes it holds while queued (what a byte-bounded queue counts).
public protocol DroppableElement: Sendable {
    /// Whether the item may be dropped when its queue is full.
    var isDroppable: Bool { get }
    /// The bytes the item keeps alive while it waits in a queue (a decoded picture's buffers;
    /// 0 for an item whose size does not matter).
    var byteCost: Int { get }
}
