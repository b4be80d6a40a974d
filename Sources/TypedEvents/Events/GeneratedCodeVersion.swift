/// Generated code declares a type conforming to this protocol, so that code generated for
/// another version of the runtime fails to compile with a message naming the version:
/// `cannot find type 'GeneratedCodeVersion_1' in module 'TypedEvents'`.
///
/// Regenerate with the `eventgen` that matches the TypedEvents runtime you build against.
public protocol GeneratedCodeVersion_1 {}
