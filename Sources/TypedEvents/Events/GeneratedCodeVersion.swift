/// Generated code declares a type conforming to this protocol, so that code generated for
/// a newer runtime fails to compile with a message naming the version:
/// `cannot find type 'GeneratedCodeVersion_3' in module 'TypedEvents'`.
///
/// Regenerate with the `eventgen` that matches the TypedEvents runtime you build against.
/// Version 3: filter helpers are `EventSelector` functions and call `_event(about:)`.
@_spi(Generated)
public protocol GeneratedCodeVersion_3 {}

/// Version 2: generated files import the runtime's `Generated` SPI, name everything
/// module-qualified and leave `==` to the compiler. Still declared: this runtime has everything
/// version 2 code uses, so it compiles unchanged.
@_spi(Generated)
public protocol GeneratedCodeVersion_2 {}
