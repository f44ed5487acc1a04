/// ISBN-13 / EAN-13 rules for study materials (issue 6; the barcode scanner of a later stage
/// reuses them): thirteen digits, the EAN-13 check digit, and the book prefix 978 or 979
/// ("Bookland"). Pure; no lookup.
public enum ISBN {
    /// Why a code is not a book's ISBN-13.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Not thirteen digits once hyphens and spaces are removed.
        case notThirteenDigits(String)
        /// The last digit is not the EAN-13 check digit of the first twelve.
        case wrongCheckDigit(String, expected: Int)
        /// A valid EAN-13 that is not a book (prefix other than 978/979).
        case notABook(String)

        public var description: String {
            switch self {
            case .notThirteenDigits(let text):
                "'\(text)' is not an ISBN-13: it needs 13 digits (hyphens and spaces are ignored; an old 10-digit ISBN is printed as 978… on the barcode)"
            case .wrongCheckDigit(let text, let expected):
                "'\(text)' has a wrong check digit (the last digit should be \(expected)); check for a mistyped digit"
            case .notABook(let text):
                "'\(text)' is an EAN-13 but not a book's: ISBNs start with 978 or 979"
            }
        }
    }

    /// The ISBN as thirteen digits, with hyphens and spaces removed, or the reason it is not one.
    public static func validate(_ text: String) throws(Error) -> String {
        let digits = String(text.filter { $0 != "-" && $0 != " " })
        guard digits.count == 13, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .notThirteenDigits(text) }
        let values = digits.compactMap(\.wholeNumberValue)
        let expected = checkDigit(values.prefix(12))
        guard values[12] == expected else { throw .wrongCheckDigit(text, expected: expected) }
        guard digits.hasPrefix("978") || digits.hasPrefix("979") else { throw .notABook(text) }
        return digits
    }

    /// The EAN-13 check digit of twelve digits: weights 1, 3, 1, 3, … from the left; the digit
    /// that brings the weighted sum to a multiple of 10.
    public static func checkDigit<C: Collection>(_ twelve: C) -> Int where C.Element == Int {
        let sum = twelve.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return (10 - sum % 10) % 10
    }
}
