/// An item that says whether a `.dropOldest` ``ConsumerQueue`` may discard it under
/// pressure (video frames usually may; audio blocks and end-of-segment markers may not).
public protocol DroppableElement: Sendable {
    /// Whether the item may be dropped when its queue is full.
    var isDroppable: Bool { get }
}
