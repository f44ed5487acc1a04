import CMicroHTTPD

/// The libmicrohttpd library `reel serve` and `reel studio` run on, as loaded at run time (for `reel --version`).
public enum MicroHTTPDLibrary {
    /// `MHD_get_version()`: `0.9.75`.
    public static var version: String { String(cString: MHD_get_version()) }
}
