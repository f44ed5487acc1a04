import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The National Diet Library search's OpenSearch answer to `GET {base}/api/opensearch?isbn=ISBN`:
/// RSS 2.0 whose `channel` holds `openSearch:totalResults` and one `item` per record, each with
/// `dc:title`, `dc:creator` (repeated) and `dc:publisher` (plus `title` and `author` in plain RSS).
/// The first item is taken.
public enum NDLSearchAnswer {
    /// The answer was not well-formed XML.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// What was wrong with it.
        public var description: String
    }

    /// The first book in `data`, nil when there is no item (not found) or it has no title.
    public static func parse(_ data: Data, isbn: String) throws(Error) -> BookRecord? {
        let reader = ItemReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.delegate = reader
        guard parser.parse() else {
            throw Error(description: "the National Diet Library's answer is not well-formed XML (\(parser.parserError.map { "\($0)" } ?? "unknown error"))")
        }
        guard reader.openElements == 0 else { throw Error(description: "the National Diet Library's answer is cut short") }
        guard reader.sawRSS else { throw Error(description: "the National Diet Library's answer is not RSS") }
        guard let item = reader.first else { return nil }
        let title = item["dc:title"]?.first ?? item["title"]?.first ?? ""
        guard !title.isEmpty else { return nil }
        let creators = item["dc:creator"] ?? item["author"] ?? []
        return BookRecord(isbn: isbn, title: title, author: creators.isEmpty ? nil : creators.joined(separator: ", "),
                          publisher: item["dc:publisher"]?.first, coverURL: nil, source: .ndl)
    }

    /// Collects the first item's text elements by qualified name.
    private final class ItemReader: NSObject, XMLParserDelegate {
        var sawRSS = false
        var openElements = 0
        var first: [String: [String]]?
        private var current: [String: [String]]?
        private var text = ""
        private var depthInItem = 0

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            openElements += 1
            if name == "rss" || name == "rdf:RDF" { sawRSS = true }
            if first == nil, name == "item", current == nil {
                current = [:]
                depthInItem = 0
                return
            }
            if current != nil { depthInItem += 1 }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            openElements -= 1
            guard current != nil else { return }
            if name == "item", depthInItem == 0 {
                first = current
                current = nil
                return
            }
            if depthInItem == 1 {
                let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !value.isEmpty { current?[name, default: []].append(value) }
            }
            depthInItem -= 1
            text = ""
        }
    }
}
