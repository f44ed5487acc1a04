/// An optional written as `null` when nil, never left out: the page reads every key of a
/// snapshot or an answer, and `null` says "none" where a missing key would say nothing.
/// `JSONEncoder` leaves nil optionals out of a synthesized `encode(to:)`; wrapped in this, the
/// key stays, so a type keeps its synthesized encoder.
@propertyWrapper
struct NullWhenNil<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullWhenNil: Sendable where Value: Sendable {}
extension NullWhenNil: Equatable where Value: Equatable {}
