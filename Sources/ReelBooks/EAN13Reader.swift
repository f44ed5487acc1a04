import CZBar

/// Finds EAN-13 barcodes in grey pictures with ZBar (Debian `libzbar-dev`). Only EAN-13 is
/// enabled, so a QR code or a UPC-A on the same cover is not mistaken for the ISBN. ZBar checks
/// the check digit itself (a misprinted code does not decode); ``ReelCore/ISBN/validate(_:)``
/// checks it again, and the 978/979 prefix, above.
///
/// One reader per thread: ZBar's scanner keeps state between pictures.
public final class EAN13Reader {
    /// ZBar could not be set up.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// ZBar could not allocate its scanner or picture.
        case zbarUnavailable
        /// The picture's size or stride is impossible.
        case badPicture(width: Int, height: Int, stride: Int)

        public var description: String {
            switch self {
            case .zbarUnavailable: "the ZBar barcode scanner could not be set up (is libzbar0 installed?)"
            case let .badPicture(width, height, stride): "a \(width)x\(height) picture with \(stride)-byte rows cannot be scanned"
            }
        }
    }

    private let scanner: OpaquePointer

    /// A reader with ZBar's EAN-13 decoder only.
    public init() throws(Error) {
        guard let scanner = zbar_image_scanner_create() else { throw .zbarUnavailable }
        self.scanner = scanner
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_EAN13, ZBAR_CFG_ENABLE, 1)
    }

    deinit { zbar_image_scanner_destroy(scanner) }

    /// The EAN-13 codes in `picture` (thirteen digits each, as printed under the bars), in the
    /// order ZBar found them, without repeats; empty when there is none.
    public func read(_ picture: BarcodePicture) throws(Error) -> [String] {
        guard picture.width > 0, picture.height > 0, picture.stride >= picture.width else {
            throw .badPicture(width: picture.width, height: picture.height, stride: picture.stride)
        }
        guard let image = zbar_image_create() else { throw .zbarUnavailable }
        defer { zbar_image_destroy(image) }
        // ZBar wants rows back to back: copy when the picture has padding.
        let rows = UnsafeMutableRawBufferPointer.allocate(byteCount: picture.width * picture.height, alignment: 16)
        defer { rows.deallocate() }
        for y in 0..<picture.height {
            (rows.baseAddress! + y * picture.width).copyMemory(from: picture.base + y * picture.stride, byteCount: picture.width)
        }
        zbar_image_set_format(image, reel_zbar_y800())
        zbar_image_set_size(image, UInt32(picture.width), UInt32(picture.height))
        zbar_image_set_data(image, rows.baseAddress, UInt(rows.count), nil)
        guard zbar_scan_image(scanner, image) > 0 else { return [] }
        var codes: [String] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            if zbar_symbol_get_type(current) == ZBAR_EAN13, let data = zbar_symbol_get_data(current) {
                let text = String(cString: data)
                if !codes.contains(text) { codes.append(text) }
            }
            symbol = zbar_symbol_next(current)
        }
        return codes
    }
}
