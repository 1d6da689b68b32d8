//! A progress line on stderr for work that can take seconds (`--exec-python`
//! running interpreters): shown only on a terminal, only after a second, and
//! erased when the work ends, so pipes, logs and quick runs never see it.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const DELAY: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(100);
const FRAMES: [char; 4] = ['|', '/', '-', '\\'];

pub struct Progress {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Start showing `label` (after a second, on a terminal only).
    pub fn start(label: &str) -> Progress {
        let stop = Arc::new(AtomicBool::new(false));
        if !std::io::stderr().is_terminal() {
            return Progress { stop, thread: None };
        }
        let label = label.to_string();
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            let mut shown = false;
            let mut frame = 0;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(TICK);
                let elapsed = start.elapsed();
                if elapsed < DELAY || flag.load(Ordering::Relaxed) {
                    continue;
                }
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r{} {label} ({}s)",
                    FRAMES[frame % FRAMES.len()],
                    elapsed.as_secs()
                );
                let _ = err.flush();
                shown = true;
                frame += 1;
            }
            if shown {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K");
                let _ = err.flush();
            }
        });
        Progress {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
