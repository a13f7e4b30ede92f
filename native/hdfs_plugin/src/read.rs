//! Random-access HDFS files served from a read-ahead window.
//!
//! TensorFlow reads through `read(offset, n)` in small pieces (TextLineDataset's input
//! buffer is 256 KiB, gfile reads can be a few bytes). hdfs-native opens a fresh block
//! stream for every range it is asked for, so one RPC per TF read would be slow. We
//! fetch windows of several MiB instead and, when reads are sequential, start fetching
//! the next window in the background while TensorFlow consumes the current one.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use hdfs_native::file::FileReader;
use tokio::task::JoinHandle;

use crate::abi::*;
use crate::connect::{readahead_bytes, runtime};
use crate::errors::{from_hdfs, PluginError, PluginResult};
use crate::paths::HdfsUri;

type Fetch = JoinHandle<hdfs_native::Result<Bytes>>;

struct Window {
    start: u64,
    data: Bytes,
    /// The window after this one, being fetched: (start, task).
    next: Option<(u64, Fetch)>,
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
            window: Mutex::new(Window { start: 0, data: Bytes::new(), next: None }),
        }
    }

    fn spawn_fetch(&self, start: u64) -> Fetch {
        let reader = Arc::clone(&self.reader);
        let n = (self.len - start).min(self.window_size as u64) as usize;
        runtime().spawn(async move { reader.read_range(start as usize, n).await })
    }

    /// Makes the window start at `pos` (which is < len), reusing the prefetched one when
    /// it is the right one, then starts prefetching the window after it.
    fn refill(&self, w: &mut Window, pos: u64) -> PluginResult<()> {
        let task = match w.next.take() {
            Some((start, task)) if start == pos => task,
            Some((_, stale)) => {
                stale.abort();
                self.spawn_fetch(pos)
            }
            None => self.spawn_fetch(pos),
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
        w.start = pos;
        w.data = data;
        if end < self.len {
            w.next = Some((end, self.spawn_fetch(end)));
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
                self.refill(&mut w, pos)?;
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
