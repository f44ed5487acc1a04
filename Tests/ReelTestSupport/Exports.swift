// The WebDriver client, `Loopback`, `onItsOwnThread` and `TemporaryDirectory` live in
// ReelWebDriver (the benchmarks use them without the rest of the test support); every test
// that imports ReelTestSupport gets them too.
@_exported import ReelWebDriver
