//! Thread pools (`dThreadingThreadPoolID`): threads created up front that
//! wait for commands. "Serve" makes every thread serve a multi-threaded
//! implementation until that implementation is shut down; "wait idle"
//! returns once every thread has come back from serving; freeing the pool
//! ends and joins the threads.
//!
//! Each thread handles its commands one at a time, so a no-op command sent
//! after a serve command is acknowledged only when serving has ended.

use super::engine::{ImplRef, IMPLEMENTATIONS};
use crate::handle::Pool;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;

pub static THREAD_POOLS: Pool<ThreadPool> = Pool::new(0x5448_504C);

enum Command {
    /// Serve the implementation at that address; report readiness.
    Serve(usize, Sender<()>),
    /// Acknowledge (once every earlier command is done).
    Noop(Sender<()>),
    Exit,
}

struct Worker {
    commands: Sender<Command>,
    thread: Option<JoinHandle<()>>,
}

pub struct ThreadPool {
    workers: Mutex<Vec<Worker>>,
}

/// Blocks every signal on the calling thread, as ODE's pool threads do, so
/// the host's handlers run on its own threads.
fn block_signals() {
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut set);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

fn worker_loop(rx: Receiver<Command>) {
    block_signals();
    while let Ok(cmd) = rx.recv() {
        match cmd {
            Command::Serve(addr, ready) => {
                // The pool checked the handle when the command was sent;
                // freeing an implementation that is being served is refused.
                if let Some(h) = IMPLEMENTATIONS.check(addr as *mut core::ffi::c_void) {
                    let _ = h.get().serve(|| {
                        let _ = ready.send(());
                    });
                } else {
                    let _ = ready.send(());
                }
            }
            Command::Noop(ack) => {
                let _ = ack.send(());
            }
            Command::Exit => break,
        }
    }
}

impl ThreadPool {
    /// Starts `count` threads (`stack_size` 0: the default size). Returns
    /// the OS error text if a thread cannot be created.
    pub fn new(count: u32, stack_size: usize) -> Result<Self, String> {
        let mut workers = Vec::with_capacity(count as usize);
        for k in 0..count {
            let (tx, rx) = channel();
            let mut b = std::thread::Builder::new().name(format!("ode-pool-{k}"));
            if stack_size != 0 {
                b = b.stack_size(stack_size);
            }
            match b.spawn(move || worker_loop(rx)) {
                Ok(t) => workers.push(Worker { commands: tx, thread: Some(t) }),
                Err(e) => {
                    let pool = ThreadPool { workers: Mutex::new(workers) };
                    pool.stop();
                    return Err(e.to_string());
                }
            }
        }
        Ok(ThreadPool { workers: Mutex::new(workers) })
    }

    pub fn thread_count(&self) -> usize {
        self.workers.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Makes every thread serve `imp`; returns once each has started.
    pub fn serve(&self, imp: ImplRef) {
        let workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        for w in workers.iter() {
            let (tx, rx) = channel();
            if w.commands.send(Command::Serve(imp.as_raw() as usize, tx)).is_ok() {
                let _ = rx.recv();
            }
        }
    }

    /// Returns once every thread is back waiting for commands.
    pub fn wait_idle(&self) {
        let workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        for w in workers.iter() {
            let (tx, rx) = channel();
            if w.commands.send(Command::Noop(tx)).is_ok() {
                let _ = rx.recv();
            }
        }
    }

    /// Ends and joins the threads (each after its current command).
    fn stop(&self) {
        let mut workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        for w in workers.iter() {
            let _ = w.commands.send(Command::Exit);
        }
        for w in workers.iter_mut() {
            if let Some(t) = w.thread.take() {
                let _ = t.join();
            }
        }
        workers.clear();
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.stop();
    }
}
