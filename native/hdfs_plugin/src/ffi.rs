//! Shared plumbing of the C entry points: argument decoding, status reporting, panics
//! kept from unwinding into TensorFlow, and memory TensorFlow will free.

use std::ffi::CStr;
use std::os::raw::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::abi::*;
use crate::errors::{PluginError, PluginResult};
use crate::paths::HdfsUri;
use crate::status;

/// Runs `f`, reports its outcome in `status` and returns its value (or `on_error`).
/// A panic becomes TF_INTERNAL instead of unwinding across the C boundary.
pub fn guarded<T>(status: *mut TF_Status, on_error: T, f: impl FnOnce() -> PluginResult<T>) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => {
            status::ok(status);
            v
        }
        Ok(Err(e)) => {
            status::set(status, e.code, &e.message);
            on_error
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            status::set(status, TF_INTERNAL, &format!("tf1compat hdfs plugin bug: {what}"));
            on_error
        }
    }
}

/// The URI argument TensorFlow passed (never NULL per the ABI; checked anyway).
pub fn uri_arg(path: *const c_char) -> PluginResult<HdfsUri> {
    if path.is_null() {
        return Err(PluginError::new(TF_INVALID_ARGUMENT, "NULL path passed to the hdfs plugin"));
    }
    let s = unsafe { CStr::from_ptr(path) }.to_str().map_err(|_| {
        PluginError::new(TF_INVALID_ARGUMENT, "path passed to the hdfs plugin is not valid UTF-8")
    })?;
    HdfsUri::parse(s).map_err(|m| PluginError::new(TF_INVALID_ARGUMENT, m))
}

/// The allocator TensorFlow uses to free what we hand over (names, tables, arrays).
pub unsafe extern "C" fn plugin_alloc(size: usize) -> *mut c_void {
    libc::calloc(1, size.max(1))
}

pub unsafe extern "C" fn plugin_free(ptr: *mut c_void) {
    libc::free(ptr)
}

/// A NUL-terminated copy of `s` in plugin memory (TensorFlow frees it).
pub fn c_string(s: &str) -> *mut c_char {
    let bytes = s.as_bytes();
    unsafe {
        let p = plugin_alloc(bytes.len() + 1) as *mut u8;
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
        *p.add(bytes.len()) = 0;
        p as *mut c_char
    }
}

/// Stores `names` as a plugin-allocated `char**` in `*out` and returns the count.
pub fn c_string_array(names: &[String], out: *mut *mut *mut c_char) -> i32 {
    unsafe {
        let arr = plugin_alloc(names.len() * std::mem::size_of::<*mut c_char>()) as *mut *mut c_char;
        for (i, n) in names.iter().enumerate() {
            *arr.add(i) = c_string(n);
        }
        *out = arr;
    }
    names.len() as i32
}
