//! Panics raised in the storage engines' own code. redb and tantivy panic
//! (slice bounds, `unreachable!`) on a file that does not hold what they
//! wrote: such a panic is damage on disk to report, not a bug of ours. A
//! panic raised in our code goes on unwinding.

use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::Once;

/// An engine that reads files of ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Redb,
    Tantivy,
}

impl Engine {
    /// The engine whose source file raised a panic, told by its crate's
    /// path (tantivy's byte slices come from its `ownedbytes` crate).
    fn of_source_file(path: &str) -> Option<Engine> {
        if path.contains("redb") {
            Some(Engine::Redb)
        } else if path.contains("tantivy") || path.contains("ownedbytes") {
            Some(Engine::Tantivy)
        } else {
            None
        }
    }
}

/// A panic raised in an engine's code, caught.
#[derive(Debug)]
pub struct EnginePanicked;

thread_local! {
    /// The engine this thread's last panic was raised in, if any.
    static LAST_PANIC_IN: Cell<Option<Engine>> = const { Cell::new(None) };
}

/// Installs, once, a panic hook that records which engine a panic was
/// raised in: such a panic is logged only at debug level (whoever caught it
/// reports the damaged file), any other handed to the hook before it.
fn watch_engine_panics() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let engine = info
                .location()
                .and_then(|place| Engine::of_source_file(place.file()));
            LAST_PANIC_IN.set(engine);
            match engine {
                // Caught, and reported as a damaged file by whoever asked.
                Some(engine) => tracing::debug!(?engine, panic = %info, "a file cannot be read"),
                None => previous(info),
            }
        }));
    });
}

/// Runs `work`; a panic raised in `engine`'s code is [`EnginePanicked`].
pub fn catch<T>(engine: Engine, work: impl FnOnce() -> T) -> Result<T, EnginePanicked> {
    watch_engine_panics();
    LAST_PANIC_IN.set(None);
    std::panic::catch_unwind(AssertUnwindSafe(work)).map_err(|panic| {
        if LAST_PANIC_IN.get() != Some(engine) {
            std::panic::resume_unwind(panic);
        }
        EnginePanicked
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_are_told_by_their_crates_paths() {
        let registry = "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f";
        assert_eq!(
            Engine::of_source_file(&format!("{registry}/redb-4.5.0/src/tree_store/page.rs")),
            Some(Engine::Redb)
        );
        assert_eq!(
            Engine::of_source_file(&format!("{registry}/tantivy-sstable-0.6.0/src/lib.rs")),
            Some(Engine::Tantivy)
        );
        assert_eq!(
            Engine::of_source_file(&format!("{registry}/ownedbytes-0.9.0/src/lib.rs")),
            Some(Engine::Tantivy)
        );
        assert_eq!(Engine::of_source_file("src/library/index.rs"), None);
    }

    #[test]
    fn a_panic_of_our_own_goes_on_unwinding() {
        let ours = std::panic::catch_unwind(|| catch(Engine::Redb, || panic!("a bug of ours")));
        assert!(ours.is_err());
    }
}
