//! The four textures drawstuff knows (wood, checkered, ground, sky): read
//! from `<path_to_textures>/{wood,checkered,ground,sky}.ppm` when the files
//! exist (ODE's source tree ships them), otherwise generated here so a
//! program without ODE's texture directory still gets a textured scene.
use std::path::Path;

/// An RGBA8 image.
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Rows of RGBA bytes.
    pub rgba: Vec<u8>,
}

/// File names, in texture-number order (DS_WOOD = 1 … DS_SKY = 4).
pub const NAMES: [&str; 4] = ["wood", "checkered", "ground", "sky"];

/// Loads texture `number` (1…4) from `dir`, or generates it.
pub fn load(dir: Option<&Path>, number: usize) -> Image {
    if let Some(dir) = dir {
        let path = dir.join(format!("{}.ppm", NAMES[number - 1]));
        if let Ok(img) = image::open(&path) {
            let img = img.to_rgba8();
            return Image { width: img.width(), height: img.height(), rgba: img.into_raw() };
        }
    }
    generated(number)
}

/// A generated stand-in for texture `number`.
pub fn generated(number: usize) -> Image {
    const N: u32 = 128;
    let mut rgba = Vec::with_capacity((N * N * 4) as usize);
    for y in 0..N {
        for x in 0..N {
            let (fx, fy) = (x as f32 / N as f32, y as f32 / N as f32);
            let c: [f32; 3] = match number {
                // Wood: rings of light and dark brown.
                1 => {
                    let r = ((fx - 0.3).hypot(fy * 0.2) * 40.0).sin() * 0.5 + 0.5;
                    [0.55 + 0.25 * r, 0.35 + 0.18 * r, 0.15 + 0.08 * r]
                }
                // Checkered: 2 × 2 black and white.
                2 => {
                    let v = if ((x * 2 / N) + (y * 2 / N)).is_multiple_of(2) { 1.0 } else { 0.1 };
                    [v, v, v]
                }
                // Ground: a grey-green 1 m tile with a darker border and noise.
                3 => {
                    let edge = fx.min(1.0 - fx).min(fy.min(1.0 - fy)) < 0.02;
                    let noise = hash(x, y) * 0.08;
                    let b = if edge { 0.75 } else { 0.9 } - noise;
                    [0.6 * b + 0.2, 0.6 * b + 0.2, 0.45 * b + 0.15]
                }
                // Sky: blue with soft white cloud bands.
                _ => {
                    let cloud = ((fx * std::f32::consts::TAU).sin() * (fy * 2.0 * std::f32::consts::TAU).cos())
                        .max(0.0)
                        .powf(3.0);
                    [0.25 + 0.7 * cloud, 0.5 + 0.45 * cloud, 0.95]
                }
            };
            rgba.extend(c.map(|v| (v.clamp(0.0, 1.0) * 255.0) as u8));
            rgba.push(255);
        }
    }
    Image { width: N, height: N, rgba }
}

/// A repeatable pseudo-random value in [0, 1) per pixel.
fn hash(x: u32, y: u32) -> f32 {
    let mut h = x.wrapping_mul(374_761_393) ^ y.wrapping_mul(668_265_263);
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    (h >> 8) as f32 / (1u32 << 24) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_fall_back_to_generated_images_and_read_ppm_files() {
        for n in 1..=4 {
            let img = load(Some(Path::new("/nonexistent")), n);
            assert_eq!(img.rgba.len(), (img.width * img.height * 4) as usize);
        }
        let dir = std::env::temp_dir().join(format!("ds_tex_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A 2 × 1 binary PPM: red then blue.
        let mut ppm = b"P6\n2 1\n255\n".to_vec();
        ppm.extend([255, 0, 0, 0, 0, 255]);
        std::fs::write(dir.join("sky.ppm"), ppm).unwrap();
        let img = load(Some(&dir), 4);
        assert_eq!((img.width, img.height), (2, 1));
        assert_eq!(img.rgba, vec![255, 0, 0, 255, 0, 0, 255, 255]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
