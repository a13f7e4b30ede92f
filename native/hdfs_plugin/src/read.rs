//! Random-access HDFS files served from a read-ahead window.
//!
//! TensorFlow reads through `read(offset, n)` in small pieces (TextLineDataset's input
//! buffer is 256 KiB, gfile reads can be a few bytes). hdfs-native opens a fresh block
//! stream for every range it is asked for, so one RPC per TF read would be slow. We
//! fetch windows instead, sized like an operating system's readahead: the first
//! window is what TensorFlow asked for (at least `FIRST_WINDOW`), each sequential
//! window after it doubles up to the configured readahead, and only once the reader
//! has proved sequential (two windows in a row) is the next window fetched in the
//! background while TensorFlow consumes the current one. A reader that reads one
//! byte range and closes the file (as `modern.input_pipeline` does per range) then
//! fetches little more than it uses; a reader streaming a whole file still overlaps
//! transfer with decoding.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use hdfs_native::file::FileReader;
use tokio::task::JoinHandle;

use crate::abi::*;
use crate::connect::{readahead_bytes, runtime};
use crate::errors::{from_hdfs, PluginError, PluginResult};
use crate::paths::HdfsUri;

type Fetch = JoinHandle<hdfs_native::Result<Bytes>>;

/// The smallest first window: small reads still fetch a useful amount.
const FIRST_WINDOW: usize = 256 * 1024;

struct Window {
    start: u64,
    data: Bytes,
    /// The window after this one, being fetched: (start, task).
    next: Option<(u64, Fetch)>,
    /// How many windows in a row were read sequentially (each starting where the last ended).
    streak: u32,
}

pub struct HdfsReadFile {
    uri: HdfsUri,
    reader: Arc<FileReader>,
    len: u64,
    window_size: usize,
    window: Mutex<Window>,
}

impl HdfsReadFile {
    pub fn new(uri: HdfsUri, reader: FileReader) -> Self {
        let len = reader.file_length() as u64;
        HdfsReadFile {
            uri,
            reader: Arc::new(reader),
            len,
            window_size: readahead_bytes().max(64 * 1024),
            window: Mutex::new(Window { start: 0, data: Bytes::new(), next: None, streak: 0 }),
        }
    }

    fn spawn_fetch(&self, start: u64, size: usize) -> Fetch {
        let reader = Arc::clone(&self.reader);
        let n = (self.len - start).min(size as u64) as usize;
        runtime().spawn(async move { reader.read_range(start as usize, n).await })
    }

    /// Makes the window start at `pos` (which is < len) for a read wanting `want` bytes,
    /// reusing the prefetched window when it is the right one; prefetches the next
    /// window once reads have been sequential for two windows.
    fn refill(&self, w: &mut Window, pos: u64, want: usize) -> PluginResult<()> {
        let sequential = !w.data.is_empty() && pos == w.start + w.data.len() as u64;
        let size = if sequential {
            (w.data.len() * 2).min(self.window_size)
        } else {
            want.max(FIRST_WINDOW).min(self.window_size)
        };
        w.streak = if sequential { w.streak + 1 } else { 0 };
        let task = match w.next.take() {
            Some((start, task)) if start == pos => task,
            Some((_, stale)) => {
                stale.abort();
                self.spawn_fetch(pos, size)
            }
            None => self.spawn_fetch(pos, size),
        };
        let data = match runtime().block_on(task) {
            Ok(Ok(data)) => data,
            Ok(Err(e)) => return Err(from_hdfs("read", &self.uri, e)),
            Err(join) => {
                return Err(PluginError::new(TF_INTERNAL, format!("read {}: reader task failed: {join}", self.uri.display())))
            }
        };
        if data.is_empty() {
            return Err(PluginError::new(
                TF_DATA_LOSS,
                format!("read {}: HDFS returned no data at offset {pos} of {} bytes", self.uri.display(), self.len),
            ));
        }
        let end = pos + data.len() as u64;
        let next_size = (data.len() * 2).min(self.window_size);
        w.start = pos;
        w.data = data;
        if w.streak >= 1 && end < self.len {
            w.next = Some((end, self.spawn_fetch(end, next_size)));
        }
        Ok(())
    }

    /// Copies up to `buf.len()` bytes at `offset` into `buf`; returns how many (fewer only
    /// at end of file).
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> PluginResult<usize> {
        if offset >= self.len {
            return Ok(0);
        }
        let want = (self.len - offset).min(buf.len() as u64) as usize;
        let mut w = self.window.lock().unwrap_or_else(|e| e.into_inner());
        let mut done = 0usize;
        while done < want {
            let pos = offset + done as u64;
            let in_window = pos >= w.start && pos < w.start + w.data.len() as u64;
            if !in_window {
                self.refill(&mut w, pos, want - done)?;
            }
            let from = (pos - w.start) as usize;
            let n = (w.data.len() - from).min(want - done);
            buf[done..done + n].copy_from_slice(&w.data[from..from + n]);
            done += n;
        }
        Ok(done)
    }
}

impl Drop for HdfsReadFile {
    fn drop(&mut self) {
        if let Some((_, task)) = self.window.get_mut().unwrap_or_else(|e| e.into_inner()).next.take() {
            task.abort();
        }
    }
}
