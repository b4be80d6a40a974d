/// Generated code declares a type conforming to this protocol, so that code generated for
/// another version of the runtime fails to compile with a message naming the version:
/// `no type named 'GeneratedCodeVersion_2' in module 'TypedEvents'`.
///
/// Regenerate with the `eventgen` that matches the TypedEvents runtime you build against.
/// Version 1 is the first release's. A release whose runtime reads generated code differently
/// declares the next number, and keeps declaring the numbers of earlier generated code that it
/// still builds.
@_spi(Generated)
public protocol GeneratedCodeVersion_1 {}

/// Version 2: generated code may use ``JSONValue``, `const` fields (`FieldReader.decodeConstant`),
/// choices between schemas, and names an open enum's catch-all case `UNRECOGNIZED`.
@_spi(Generated)
public protocol GeneratedCodeVersion_2 {}
