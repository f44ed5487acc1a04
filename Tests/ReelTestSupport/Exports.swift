// The WebDriver client, `Loopback`, `onItsOwnThread`, `TemporaryDirectory` and `SplitMix64`
// live in ReelHarness (the benchmarks use them without the rest of the test support); every
// test that imports ReelTestSupport gets them too.
@_exported import ReelHarness
