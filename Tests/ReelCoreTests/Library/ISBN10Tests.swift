import ReelCore
import Testing

/// An ISBN-10 typed by the user becomes the ISBN-13 printed under the barcode.
@Suite("ISBN-10 → ISBN-13")
struct ISBN10Tests {
    @Test("an ISBN-10 becomes 978 + its nine digits + a new check digit; hyphens, spaces and x/X accepted")
    func converted() throws {
        #expect(try ISBN.normalized("0-306-40615-2") == "9780306406157")
        #expect(try ISBN.normalized("0306406152") == "9780306406157")
        #expect(try ISBN.normalized("0 8044 2957 X") == "9780804429573")
        #expect(try ISBN.normalized("080442957x") == "9780804429573")
        #expect(try ISBN.normalized("4-10-101001-3") == "9784101010014")
        #expect(ISBN.isbn10CheckDigit([0, 3, 0, 6, 4, 0, 6, 1, 5]) == "2")
        #expect(ISBN.isbn10CheckDigit([0, 8, 0, 4, 4, 2, 9, 5, 7]) == "X")
    }

    @Test("an ISBN-13 goes through the ISBN-13 rules unchanged")
    func thirteen() throws {
        #expect(try ISBN.normalized("978-0-306-40615-7") == "9780306406157")
        #expect(throws: ISBN.Error.wrongCheckDigit("9780306406158", expected: 7)) { try ISBN.normalized("9780306406158") }
        #expect(throws: ISBN.Error.notABook("4006381333931")) { try ISBN.normalized("4006381333931") }
    }

    @Test("a wrong ISBN-10 check digit (X included) is refused with the digit it should be")
    func wrongCheckDigit() throws {
        #expect(throws: ISBN.Error.wrongISBN10CheckDigit("0-306-40615-X", expected: "2")) { try ISBN.normalized("0-306-40615-X") }
        #expect(throws: ISBN.Error.wrongISBN10CheckDigit("0306406153", expected: "2")) { try ISBN.normalized("0306406153") }
        #expect(throws: ISBN.Error.wrongISBN10CheckDigit("0804429570", expected: "X")) { try ISBN.normalized("0804429570") }
        let text = ISBN.Error.wrongISBN10CheckDigit("0-306-40615-X", expected: "2").description
        #expect(text == "'0-306-40615-X' is not a valid ISBN-10: its check digit (the last) should be 2; check for a mistyped digit")
    }

    @Test("other lengths, an X not at the end and other characters are not ISBNs")
    func notAnISBN() throws {
        for text in ["", "030640615", "03064061522", "X306406152", "03064O6152", "978030640615", "０３０６４０６１５２"] {
            #expect(throws: ISBN.Error.notAnISBN(text)) { try ISBN.normalized(text) }
        }
        #expect(ISBN.Error.notAnISBN("12").description.contains("13 digits (978… or 979…), or 10 for an old ISBN-10 whose last one may be X"))
    }
}
