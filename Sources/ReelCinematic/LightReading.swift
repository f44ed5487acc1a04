import ReelCore

/// The measurements the low-light warning reads (``LightMonitor``) from a picture's luma plane:
/// the mean level and Immerkær's noise estimate (1996: the picture convolved with a Laplacian
/// difference mask, whose mean absolute value is proportional to the noise's sigma, while
/// edges weigh little). About 360 rows are measured whatever the height (every second row at
/// 720p, every third at 1080p): the estimate needs no more.
public enum LightReading {
    /// The reading of the `width` × `height` luma plane at `base` (`stride` bytes a row).
    public static func measure(luma base: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
                               gain: Double? = nil) -> LightMonitor.Reading {
        guard width >= 3, height >= 3 else { return LightMonitor.Reading(meanLuma: 0, noise: 0, gain: gain) }
        var levels = 0, levelCount = 0, absolute = 0, laplacianCount = 0
        let step = max(2, height / 360)
        var row = 1
        while row < height - 1 {
            let above = base + (row - 1) * stride, here = base + row * stride, below = base + (row + 1) * stride
            for x in 1..<(width - 1) {
                let corners = Int(above[x - 1]) + Int(above[x + 1]) + Int(below[x - 1]) + Int(below[x + 1])
                let sides = Int(above[x]) + Int(below[x]) + Int(here[x - 1]) + Int(here[x + 1])
                absolute += abs(corners - 2 * sides + 4 * Int(here[x]))
                levels += Int(here[x])
            }
            levelCount += width - 2
            laplacianCount += width - 2
            row += step
        }
        let noise = (Double.pi / 2).squareRoot() / 6 * Double(absolute) / Double(max(1, laplacianCount))
        return LightMonitor.Reading(meanLuma: Double(levels) / Double(max(1, levelCount)), noise: noise, gain: gain)
    }
}
