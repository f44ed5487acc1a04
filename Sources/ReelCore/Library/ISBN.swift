/// ISBN-13 / EAN-13 rules for study materials (typed by hand or read by the barcode scan of
/// ReelMaterials): thirteen digits, the EAN-13 check digit, and the book prefix 978 or 979
/// ("Bookland"). A typed ISBN may also be an old ISBN-10: its check digit (0–9 or
/// X) is checked, and it becomes the ISBN-13 with the 978 prefix and a new check digit, the
/// number printed under the book's barcode. Pure; no lookup.
public enum ISBN {
    /// Why a code is not a book's ISBN-13.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Not thirteen digits once hyphens and spaces are removed.
        case notThirteenDigits(String)
        /// The last digit is not the EAN-13 check digit of the first twelve.
        case wrongCheckDigit(String, expected: Int)
        /// A valid EAN-13 that is not a book (prefix other than 978/979).
        case notABook(String)
        /// Neither 13 digits nor an ISBN-10 (9 digits and a digit or X) once hyphens and
        /// spaces are removed (``normalized(_:)``).
        case notAnISBN(String)
        /// An ISBN-10 whose last character is not the check digit of the first nine
        /// (`expected` is 0–9 or X).
        case wrongISBN10CheckDigit(String, expected: Character)

        public var description: String {
            switch self {
            case .notThirteenDigits(let text):
                "'\(text)' is not an ISBN-13: it needs 13 digits (hyphens and spaces are ignored; an old 10-digit ISBN is printed as 978… on the barcode)"
            case .wrongCheckDigit(let text, let expected):
                "'\(text)' has a wrong check digit (the last digit should be \(expected)); check for a mistyped digit"
            case .notABook(let text):
                "'\(text)' is an EAN-13 but not a book's: ISBNs start with 978 or 979"
            case .notAnISBN(let text):
                "'\(text)' is not an ISBN: it needs 13 digits (978… or 979…), or 10 for an old ISBN-10 whose last one may be X; hyphens and spaces are ignored"
            case .wrongISBN10CheckDigit(let text, let expected):
                "'\(text)' is not a valid ISBN-10: its check digit (the last) should be \(expected); check for a mistyped digit"
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

    /// A typed ISBN as the thirteen digits the library keeps: an ISBN-13 is checked as
    /// ``validate(_:)`` does; an ISBN-10 (`0-306-40615-2`, `080442957X`) has its check digit
    /// checked and becomes `978` + its first nine digits + the EAN-13 check digit
    /// (`9780306406157`). Hyphens and spaces are ignored.
    public static func normalized(_ text: String) throws(Error) -> String {
        let characters = Array(text.filter { $0 != "-" && $0 != " " })
        guard characters.count == 10 else {
            guard characters.count == 13 else { throw .notAnISBN(text) }
            return try validate(text)
        }
        let nine = characters.prefix(9).compactMap { $0.isASCII ? $0.wholeNumberValue : nil }
        let last = characters[9]
        guard nine.count == 9, last == "X" || last == "x" || (last.isASCII && last.isNumber) else { throw .notAnISBN(text) }
        let expected = isbn10CheckDigit(nine)
        guard last.uppercased() == String(expected) else { throw .wrongISBN10CheckDigit(text, expected: expected) }
        let twelve = [9, 7, 8] + nine
        return twelve.map(String.init).joined() + String(checkDigit(twelve))
    }

    /// The ISBN-10 check digit of nine digits: weights 10, 9, … 2 from the left; the value
    /// that brings the weighted sum to a multiple of 11, X for 10.
    public static func isbn10CheckDigit<C: Collection>(_ nine: C) -> Character where C.Element == Int {
        let sum = nine.enumerated().reduce(0) { $0 + $1.element * (10 - $1.offset) }
        let value = (11 - sum % 11) % 11
        return value == 10 ? "X" : Character(String(value))
    }

    /// The EAN-13 check digit of twelve digits: weights 1, 3, 1, 3, … from the left; the digit
    /// that brings the weighted sum to a multiple of 10.
    public static func checkDigit<C: Collection>(_ twelve: C) -> Int where C.Element == Int {
        let sum = twelve.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return (10 - sum % 10) % 10
    }
}
