/// A borrowed 8-bit grey picture the barcode reader looks at: a pointer into memory the caller
/// owns, valid for one ``EAN13Reader/read(_:)`` call only. ReelBooks knows no video frames; the
/// pipeline above hands a decoded frame's luma plane in as one of these.
public struct BarcodePicture {
    /// The first byte of the first row.
    public var base: UnsafeRawPointer
    /// Width and height in pixels.
    public var width: Int, height: Int
    /// Bytes from one row to the next (at least `width`).
    public var stride: Int

    /// A grey picture of `width` x `height` pixels whose rows are `stride` bytes apart.
    public init(base: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }
}
