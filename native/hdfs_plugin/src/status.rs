//! Setting a `TF_Status` without linking against TensorFlow.
//!
//! `TF_SetStatus` lives in `libtensorflow_framework.so.2`. Linking against it would need
//! the TensorFlow wheel at build time and a matching rpath; instead we look the symbol up
//! at run time in the copy TensorFlow has already loaded (the plugin is only ever loaded
//! by `tf.experimental.register_filesystem_plugin`, so it is always there).

use std::ffi::CString;
use std::os::raw::{c_char, c_void};
use std::sync::OnceLock;

use crate::abi::{TF_Code, TF_Status, TF_OK};

type SetStatusFn = unsafe extern "C" fn(*mut TF_Status, TF_Code, *const c_char);

static SET_STATUS: OnceLock<Option<SetStatusFn>> = OnceLock::new();

/// Names tried with RTLD_NOLOAD: never loads a second copy, only finds the loaded one.
const FRAMEWORK_LIBS: [&str; 2] = ["libtensorflow_framework.so.2", "libtensorflow_framework.so"];

fn lookup_set_status() -> Option<SetStatusFn> {
    let symbol = b"TF_SetStatus\0".as_ptr() as *const c_char;
    unsafe {
        for name in FRAMEWORK_LIBS {
            let cname = CString::new(name).unwrap();
            let handle = libc::dlopen(cname.as_ptr(), libc::RTLD_NOLOAD | libc::RTLD_LAZY);
            if handle.is_null() {
                continue;
            }
            let sym = libc::dlsym(handle, symbol);
            if !sym.is_null() {
                return Some(std::mem::transmute::<*mut c_void, SetStatusFn>(sym));
            }
        }
        // A TensorFlow built as one big library exports it globally instead.
        let sym = libc::dlsym(libc::RTLD_DEFAULT, symbol);
        if sym.is_null() {
            None
        } else {
            Some(std::mem::transmute::<*mut c_void, SetStatusFn>(sym))
        }
    }
}

/// True when `TF_SetStatus` was found; `TF_InitPlugin` refuses to register otherwise,
/// because every error would then be silently reported as success.
pub fn available() -> bool {
    SET_STATUS.get_or_init(lookup_set_status).is_some()
}

/// Sets `status` to `code` with `message` (NUL bytes in the message are replaced).
pub fn set(status: *mut TF_Status, code: TF_Code, message: &str) {
    if status.is_null() {
        return;
    }
    if let Some(f) = *SET_STATUS.get_or_init(lookup_set_status) {
        let msg = CString::new(message.replace('\0', " ")).unwrap_or_default();
        unsafe { f(status, code, msg.as_ptr()) };
    }
}

pub fn ok(status: *mut TF_Status) {
    set(status, TF_OK, "");
}
