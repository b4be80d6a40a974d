#if PostgreSQL || HTTPServer
  import NIOCore

  /// A SwiftNIO event loop as a task executor: the jobs of a task that prefers it run on the
  /// loop's thread, so that the task and the channel work it awaits share one thread.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  package final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop that runs the jobs.
    package let loop: any EventLoop

    /// An executor that runs its jobs on `loop`.
    package init(_ loop: any EventLoop) {
      self.loop = loop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
  }
#endif
