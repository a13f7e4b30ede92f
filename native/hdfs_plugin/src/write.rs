//! Writable HDFS files: TensorFlow appends many small pieces, so we collect them into
//! 1 MiB chunks before handing them to hdfs-native's block writer.

use std::sync::Mutex;

use bytes::{Bytes, BytesMut};
use hdfs_native::file::FileWriter;

use crate::abi::*;
use crate::connect::runtime;
use crate::errors::{from_hdfs, PluginError, PluginResult};
use crate::paths::HdfsUri;

const CHUNK: usize = 1 << 20;

struct State {
    writer: Option<FileWriter>,
    pending: BytesMut,
    /// Bytes in the file so far, including `pending` (what `tell` reports).
    position: u64,
}

pub struct HdfsWriteFile {
    uri: HdfsUri,
    state: Mutex<State>,
}

impl HdfsWriteFile {
    pub fn new(uri: HdfsUri, writer: FileWriter, start: u64) -> Self {
        HdfsWriteFile {
            uri,
            state: Mutex::new(State { writer: Some(writer), pending: BytesMut::new(), position: start }),
        }
    }

    fn closed(&self, op: &str) -> PluginError {
        PluginError::new(TF_FAILED_PRECONDITION, format!("{op} {}: the file is already closed", self.uri.display()))
    }

    fn push(&self, st: &mut State) -> PluginResult<()> {
        if st.pending.is_empty() {
            return Ok(());
        }
        let chunk: Bytes = st.pending.split().freeze();
        let writer = st.writer.as_mut().ok_or_else(|| self.closed("write"))?;
        runtime().block_on(writer.write_bytes(chunk)).map_err(|e| from_hdfs("write", &self.uri, e))?;
        Ok(())
    }

    pub fn append(&self, data: &[u8]) -> PluginResult<()> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.writer.is_none() {
            return Err(self.closed("append to"));
        }
        st.pending.extend_from_slice(data);
        st.position += data.len() as u64;
        if st.pending.len() >= CHUNK {
            self.push(&mut st)?;
        }
        Ok(())
    }

    pub fn tell(&self) -> u64 {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).position
    }

    /// Hands buffered bytes to the writer (TF `flush`: no durability promise).
    pub fn flush(&self) -> PluginResult<()> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.push(&mut st)
    }

    /// TF `sync`: flushed and persisted on the DataNodes (hsync).
    pub fn sync(&self) -> PluginResult<()> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.push(&mut st)?;
        let uri = &self.uri;
        let writer = st.writer.as_mut().ok_or_else(|| self.closed("sync"))?;
        runtime().block_on(writer.hsync()).map_err(|e| from_hdfs("sync", uri, e))
    }

    pub fn close(&self) -> PluginResult<()> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.writer.is_none() {
            return Ok(());
        }
        let pushed = self.push(&mut st);
        let mut writer = st.writer.take().unwrap();
        // Close even when the last push failed, so the NameNode lease is released.
        let closed = runtime().block_on(writer.close()).map_err(|e| from_hdfs("close", &self.uri, e));
        pushed.and(closed)
    }
}

impl Drop for HdfsWriteFile {
    fn drop(&mut self) {
        // TF calls close before cleanup; this is for files abandoned on an error path.
        let _ = self.close();
    }
}
