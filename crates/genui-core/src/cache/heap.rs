//! The heap bytes in use, counted around the allocator in wasm, so the
//! isolate's memos charge what an entry really holds.
//!
//! A compiled `output` validator's heap is not a fixed multiple of its
//! schema: over the peer corpus it ranged from under 2x to over 8x the
//! schema's tree (schemas with many `$ref`s), so an estimate let the
//! validator memo hold several times its byte bound. In wasm the core
//! counts every allocation (a wrapper around the standard allocator: one
//! add per call, the module is single-threaded) and the memo charges the
//! bytes a compile kept. Natively nothing is counted and the memos estimate.

#[cfg(target_arch = "wasm32")]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    pub(super) static IN_USE: AtomicUsize = AtomicUsize::new(0);

    fn grew(bytes: usize) {
        IN_USE.fetch_add(bytes, Relaxed);
    }

    struct Counting;

    // SAFETY: every call is passed to `System` unchanged; only counters move.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract, forwarded.
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                grew(layout.size());
            }
            p
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract, forwarded.
            let p = unsafe { System.alloc_zeroed(layout) };
            if !p.is_null() {
                grew(layout.size());
            }
            p
        }

        unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
            // SAFETY: the caller's contract, forwarded.
            unsafe { System.dealloc(p, layout) };
            IN_USE.fetch_sub(layout.size(), Relaxed);
        }

        unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
            // SAFETY: the caller's contract, forwarded.
            let q = unsafe { System.realloc(p, layout, size) };
            if !q.is_null() {
                IN_USE.fetch_sub(layout.size(), Relaxed);
                grew(size);
            }
            q
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;
}

/// Heap bytes in use now; `None` where nothing is counted (natively).
pub(crate) fn in_use() -> Option<usize> {
    #[cfg(target_arch = "wasm32")]
    return Some(counting::IN_USE.load(std::sync::atomic::Ordering::Relaxed));
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// The heap bytes `f` left allocated (what its result holds, when it frees
/// everything else), or `None` natively.
pub(crate) fn kept_by<T>(f: impl FnOnce() -> T) -> (T, Option<usize>) {
    let before = in_use();
    let out = f();
    let kept = in_use()
        .zip(before)
        .map(|(after, before)| after.saturating_sub(before));
    (out, kept)
}
