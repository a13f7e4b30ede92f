//! `TF_RandomAccessFileOps` and `TF_WritableFileOps`: thin C shims over `read.rs` and
//! `write.rs`. `plugin_file` holds a `Box` made in `filesystem.rs` and freed in `cleanup`.

use std::os::raw::c_char;

use crate::abi::*;
use crate::ffi::guarded;
use crate::read::HdfsReadFile;
use crate::status;
use crate::write::HdfsWriteFile;

unsafe fn reader<'a>(file: *const TF_RandomAccessFile) -> &'a HdfsReadFile {
    &*((*file).plugin_file as *const HdfsReadFile)
}

unsafe fn writer<'a>(file: *const TF_WritableFile) -> &'a HdfsWriteFile {
    &*((*file).plugin_file as *const HdfsWriteFile)
}

unsafe extern "C" fn ra_cleanup(file: *mut TF_RandomAccessFile) {
    let p = (*file).plugin_file as *mut HdfsReadFile;
    if !p.is_null() {
        drop(Box::from_raw(p));
        (*file).plugin_file = std::ptr::null_mut();
    }
}

/// Contract: OK when exactly `n` bytes were read; OUT_OF_RANGE with the short count at
/// end of file; -1 and an error status otherwise.
unsafe extern "C" fn ra_read(file: *const TF_RandomAccessFile, offset: u64, n: usize, buf: *mut c_char, st: *mut TF_Status) -> i64 {
    if n == 0 {
        status::ok(st);
        return 0;
    }
    let out = std::slice::from_raw_parts_mut(buf as *mut u8, n);
    let got = guarded(st, -1i64, || reader(file).read_at(offset, out).map(|k| k as i64));
    if got >= 0 && (got as usize) < n {
        status::set(st, TF_OUT_OF_RANGE, "Read less bytes than requested");
    }
    got
}

unsafe extern "C" fn wf_cleanup(file: *mut TF_WritableFile) {
    let p = (*file).plugin_file as *mut HdfsWriteFile;
    if !p.is_null() {
        drop(Box::from_raw(p));
        (*file).plugin_file = std::ptr::null_mut();
    }
}

unsafe extern "C" fn wf_append(file: *const TF_WritableFile, data: *const c_char, n: usize, st: *mut TF_Status) {
    let bytes: &[u8] = if n == 0 { &[] } else { std::slice::from_raw_parts(data as *const u8, n) };
    guarded(st, (), || writer(file).append(bytes))
}

unsafe extern "C" fn wf_tell(file: *const TF_WritableFile, st: *mut TF_Status) -> i64 {
    guarded(st, -1, || Ok(writer(file).tell() as i64))
}

unsafe extern "C" fn wf_flush(file: *const TF_WritableFile, st: *mut TF_Status) {
    guarded(st, (), || writer(file).flush())
}

unsafe extern "C" fn wf_sync(file: *const TF_WritableFile, st: *mut TF_Status) {
    guarded(st, (), || writer(file).sync())
}

unsafe extern "C" fn wf_close(file: *const TF_WritableFile, st: *mut TF_Status) {
    guarded(st, (), || writer(file).close())
}

pub fn random_access_file_ops() -> TF_RandomAccessFileOps {
    TF_RandomAccessFileOps { cleanup: Some(ra_cleanup), read: Some(ra_read) }
}

pub fn writable_file_ops() -> TF_WritableFileOps {
    TF_WritableFileOps {
        cleanup: Some(wf_cleanup),
        append: Some(wf_append),
        tell: Some(wf_tell),
        flush: Some(wf_flush),
        sync: Some(wf_sync),
        close: Some(wf_close),
    }
}
