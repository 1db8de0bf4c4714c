//! Password hashing for the whole server: Argon2id on a fixed pool of worker threads behind a queue
//! of bounded length, so that however many passwords arrive at once, the memory and the cores they
//! take stay bounded (each hash takes 19 MiB on purpose) and the games go on.

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

/// Threads hashing passwords at once, for the whole server: two hashes' memory (38 MiB) at most.
pub const PASSWORD_WORKERS: usize = 2;
/// Passwords waiting for a worker before the next one is refused ("busy, try again"): at about a
/// tenth of a second a hash, the last one waits under a second.
pub const PASSWORDS_QUEUED: usize = 16;

type Job = Box<dyn FnOnce() + Send>;

/// The workers and their queue were full: the job was not taken.
#[derive(Debug, PartialEq, Eq)]
pub struct Busy;

/// A fixed number of threads running jobs from a queue of bounded length.
pub struct BoundedWorkers {
    queue: SyncSender<Job>,
}

impl BoundedWorkers {
    /// `workers` threads (at least one) named after `name`, and room for `queued` jobs waiting.
    pub fn new(name: &str, workers: usize, queued: usize) -> BoundedWorkers {
        let (queue, jobs) = sync_channel::<Job>(queued);
        let jobs = Arc::new(Mutex::new(jobs));
        for i in 0..workers.max(1) {
            let jobs = Arc::clone(&jobs);
            std::thread::Builder::new()
                .name(format!("{name} {i}"))
                .spawn(move || {
                    loop {
                        // The lock is held while waiting, so one idle worker at a time takes the next job.
                        let next = jobs.lock().map(|jobs| jobs.recv());
                        match next {
                            // A job that panics loses its answer (the caller sees `Busy`), not the worker.
                            Ok(Ok(job)) => {
                                drop(catch_unwind(AssertUnwindSafe(job)));
                                give_back_freed_memory();
                            }
                            _ => return,
                        }
                    }
                })
                .expect("the server starts its password workers");
        }
        BoundedWorkers { queue }
    }

    /// Runs `work` on a worker and waits for its answer, or refuses at once when the workers are
    /// busy and the queue is full.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, Busy> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || drop(reply.send(work())));
        self.queue.try_send(job).map_err(|_| Busy)?;
        answer.await.map_err(|_| Busy)
    }
}

/// Returns the memory a job freed to the operating system. glibc keeps a freed block of a
/// worker thread's arena for later instead, and Argon2's 19 MiB blocks were not reused from there:
/// without this, hashing 18 passwords on 2 workers left the process 270 MiB larger for good.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of the allocator's arenas to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The server's password workers.
pub struct PasswordWork {
    workers: BoundedWorkers,
}

impl Default for PasswordWork {
    fn default() -> PasswordWork {
        PasswordWork { workers: BoundedWorkers::new("password", PASSWORD_WORKERS, PASSWORDS_QUEUED) }
    }
}

impl PasswordWork {
    /// `password` hashed with Argon2id at the crate's recommended parameters, as a PHC string.
    pub async fn hash(&self, password: String) -> Result<Result<String, String>, Busy> {
        self.workers
            .run(move || {
                Argon2::default().hash_password(password.as_bytes()).map(|h| h.to_string()).map_err(|e| e.to_string())
            })
            .await
    }

    /// Whether `password` is the one `stored` (a PHC string) was hashed from.
    pub async fn matches(&self, password: String, stored: String) -> Result<bool, Busy> {
        self.workers
            .run(move || {
                PasswordHash::new(&stored)
                    .is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;
    use std::sync::mpsc::channel;

    #[tokio::test]
    async fn past_the_workers_and_the_queue_a_job_is_refused_at_once_and_taken_again_after() {
        let workers = BoundedWorkers::new("test", 1, 1);
        // One job holds the worker until told.
        let (release, held) = channel::<()>();
        let (started, worker_busy) = channel::<()>();
        let mut first = Box::pin(workers.run(move || {
            started.send(()).unwrap();
            held.recv().unwrap();
            1
        }));
        assert_eq!((&mut first).now_or_never(), None);
        worker_busy.recv().unwrap();
        // One more waits in the queue (polled once: it is queued, then waits for its answer).
        let mut second = Box::pin(workers.run(|| 2));
        assert_eq!((&mut second).now_or_never(), None);
        // A third finds no room, and is told so at once.
        assert_eq!(workers.run(|| 3).now_or_never(), Some(Err(Busy)));
        release.send(()).unwrap();
        assert_eq!(first.await, Ok(1));
        assert_eq!(second.await, Ok(2));
        assert_eq!(workers.run(|| 4).await, Ok(4), "the queue takes jobs again once it has room");
    }

    #[tokio::test]
    async fn a_job_that_panics_leaves_its_worker_working() {
        let workers = BoundedWorkers::new("test", 1, 1);
        let panicked = workers.run(|| -> u8 { panic!("a job that fails") }).await;
        assert_eq!(panicked, Err(Busy));
        assert_eq!(workers.run(|| 5).await, Ok(5));
    }

    #[tokio::test]
    async fn a_hashed_password_matches_itself_only() {
        let work = PasswordWork::default();
        let stored = work.hash("correct horse".into()).await.unwrap().unwrap();
        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert_eq!(work.matches("correct horse".into(), stored.clone()).await, Ok(true));
        assert_eq!(work.matches("wrong horse".into(), stored).await, Ok(false));
    }
}
