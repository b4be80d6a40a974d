#if HTTPServer
  import HTTPTypes

  extension HTTPFields {
    /// The value of the field `name` as `self[name]` gives it, the values of a field that comes
    /// more than once joined with `, ` (`; ` for `Cookie`), by one walk over the fields: the
    /// subscript joined even a single value into a new string, and the look-ups of every POST
    /// (its length, type and credentials) took about a fiftieth of a batch POST's own time.
    func value(of name: HTTPField.Name) -> String? {
      var value: String?
      for field in self where field.name == name {
        value = value.map { $0 + (name == .cookie ? "; " : ", ") + field.value } ?? field.value
      }
      return value
    }
  }
#endif
