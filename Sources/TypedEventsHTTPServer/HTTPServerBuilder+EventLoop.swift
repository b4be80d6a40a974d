#if HTTPServer
  import EventLoopExecutor
  import Hummingbird
  import HummingbirdCore
  import Logging
  import NIOCore

  @available(macOS 15, iOS 18, tvOS 18, visionOS 2, *)
  extension HTTPServerBuilder {
    /// An HTTP/1.1 server that handles each connection's requests on the event loop that reads and
    /// writes that connection.
    ///
    /// Hummingbird's `.http1()` handles a connection in a task on Swift's cooperative pool. Each
    /// part of a request that the connection's event loop reads wakes a thread of the pool, and
    /// each part of the answer wakes the event loop again: two or more hand-overs between threads a
    /// request, each a wake-up where the other thread sleeps. Here the connection's task prefers
    /// the event loop as its task executor, so a request is read, handled and answered on one
    /// thread. Work a handler awaits elsewhere still goes there and comes back: an `EventLog`
    /// append is written on the log's writer thread, a PostgreSQL statement on its connection's
    /// event loop.
    ///
    /// ```swift
    /// let app = Application(router: router, server: .http1OnEventLoop(), services: [endpoint])
    /// ```
    ///
    /// Child tasks of a handler inherit the preference; unstructured tasks do not. The trade is the
    /// event loop's: while a handler runs on it, the loop's other connections wait. A handler that
    /// blocks its thread (a synchronous network call, a `sleep`) holds every connection of its loop
    /// and belongs on `.http1()`. A page of an `EventLog` is read with `read`s of its file on the
    /// handler's thread, here the loop's, as it is on a thread of the pool with `.http1()`. The
    /// event loop group must outlive the server, as it must for `.http1()`.
    ///
    /// It saves the hand-overs of each request, which batch POSTs to an ``EventsEndpoint`` gain
    /// from. It gives up running a handler's work beside its loop's writes, on another thread:
    /// a handler that writes a long answer in many parts may gain from handing that work to
    /// Swift's pool (`withTaskExecutorPreference(globalConcurrentExecutor)`), as the endpoint's
    /// Server-Sent Events streams do on either builder. BENCHMARKS-HTTP.md measures both builders
    /// (`--server http1`).
    ///
    /// - Parameter configuration: The connections' HTTP/1.1 configuration, as for `.http1()`.
    public static func http1OnEventLoop(configuration: HTTP1Channel.Configuration = .init()) -> HTTPServerBuilder {
      .init { responder in
        HTTP1OnEventLoopChannel(http1: HTTP1Channel(responder: responder, configuration: configuration))
      }
    }
  }

  /// Hummingbird's HTTP/1.1 channel, whose connection task prefers the connection's event loop.
  @available(macOS 15, iOS 18, tvOS 18, visionOS 2, *)
  struct HTTP1OnEventLoopChannel: ServerChildChannel {
    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
      http1.setup(channel: channel, logger: logger)
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
      await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
        await http1.handle(value: value, logger: logger)
      }
    }
  }
#endif
