//! Pictures of the simulation: every `interval`-th frame (the first one
//! included) written as `DIR/frameNNNN.png`, and the same frames as one
//! animated `DIR/animation.gif`, encoded as they come (nothing is kept in
//! memory). Encoding is the `image` crate's (PNG, GIF and its quantiser).
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, RgbaImage};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Writes PNG frames and the GIF.
pub struct Recorder {
    dir: PathBuf,
    interval: u64,
    gif: Option<GifEncoder<BufWriter<File>>>,
    delay_ms: u32,
    written: u64,
}

impl Recorder {
    /// Prepares `dir` (created if missing). The GIF plays at the speed of a
    /// 60 frames-per-second window.
    pub fn new(dir: &Path, interval: u64) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let interval = interval.max(1);
        let file = File::create(dir.join("animation.gif")).map_err(|e| format!("cannot create animation.gif: {e}"))?;
        let mut gif = GifEncoder::new_with_speed(BufWriter::new(file), 10);
        gif.set_repeat(Repeat::Infinite).map_err(|e| e.to_string())?;
        let delay_ms = ((interval * 1000) / 60).max(20) as u32;
        Ok(Recorder { dir: dir.to_path_buf(), interval, gif: Some(gif), delay_ms, written: 0 })
    }

    /// Whether frame `n` (1-based) is one to record.
    pub fn wants(&self, n: u64) -> bool {
        (n - 1).is_multiple_of(self.interval)
    }

    /// Records frame `n` from top-first RGBA pixels.
    pub fn record(&mut self, n: u64, width: u32, height: u32, rgba: &[u8]) -> Result<(), String> {
        let img = RgbaImage::from_raw(width, height, rgba.to_vec()).ok_or("pixel buffer size")?;
        let path = self.dir.join(format!("frame{n:04}.png"));
        img.save(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        if let Some(gif) = self.gif.as_mut() {
            let frame = Frame::from_parts(img, 0, 0, Delay::from_numer_denom_ms(self.delay_ms, 1));
            gif.encode_frame(frame).map_err(|e| format!("animation.gif: {e}"))?;
        }
        self.written += 1;
        Ok(())
    }

    /// Frames written so far.
    pub fn written(&self) -> u64 {
        self.written
    }
}
