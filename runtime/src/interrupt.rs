//! Stopping a run by a signal. Once [`install`]ed, the first SIGINT, SIGTERM or SIGHUP
//! asks the run to stop: the search ends at its next solution or subtree, the listing
//! and the checkpoint are written whole, and the `-i` block says `STOPPED=signal`; the
//! executable then exits with status 128 + the signal's number. A second signal ends the
//! process at once, as if nothing had been installed.

use std::sync::atomic::{AtomicUsize, Ordering};
#[cfg(unix)]
use std::sync::Arc;
use std::sync::OnceLock;

/// The number of the first signal received (0: none), set by the handlers.
#[cfg(unix)]
static SIGNAL: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
#[cfg(not(unix))]
static SIGNAL: OnceLock<AtomicUsize> = OnceLock::new();

/// Installs the handlers, once per process; an executable calls it before it runs.
#[cfg(unix)]
pub fn install() -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::flag;
    if SIGNAL.get().is_some() {
        return Ok(());
    }
    let signal = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        // In this order: the default action on a signal after the first, then the flags.
        flag::register_conditional_default(sig, Arc::clone(&seen))
            .and_then(|_| flag::register(sig, Arc::clone(&seen)))
            .and_then(|_| flag::register_usize(sig, Arc::clone(&signal), sig as usize))
            .map_err(|e| format!("cannot handle signal {sig}: {e}"))?;
    }
    let _ = SIGNAL.set(signal);
    Ok(())
}

/// Nothing to install where there are no signals.
#[cfg(not(unix))]
pub fn install() -> Result<(), String> {
    Ok(())
}

/// The signal that asked the run to stop, if one did.
pub fn received() -> Option<i32> {
    let n = SIGNAL.get()?.load(Ordering::Relaxed);
    (n != 0).then_some(n as i32)
}

/// The exit status of an executable whose run a signal stopped: 128 + its number.
pub fn exit_status() -> Option<i32> {
    received().map(|sig| 128 + sig)
}
