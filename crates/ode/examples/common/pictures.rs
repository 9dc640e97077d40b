//! `--gif DIR` for the examples: when given, a headless drawstuff
//! [`Recording`] writes every 4th frame there as PNG and into
//! `DIR/animation.gif`. Without it the examples only print.
#[allow(unused_imports)]
pub use drawstuff::{Recording, Texture};

/// The recording asked for on the command line, looking from `xyz` with
/// heading/pitch/roll `hpr` (degrees, drawstuff's convention).
pub fn from_args(xyz: [f32; 3], hpr: [f32; 3]) -> Option<Recording> {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.iter().position(|a| a == "--gif").and_then(|i| args.get(i + 1))?;
    match Recording::new(dir, 320, 240, 4) {
        Ok(mut r) => {
            r.set_viewpoint(xyz, hpr);
            Some(r)
        }
        Err(e) => {
            eprintln!("no pictures: {e}");
            None
        }
    }
}

/// Reports where the pictures went.
pub fn finish(rec: Option<Recording>, dir_hint: &str) {
    if let Some(r) = rec {
        println!("{} pictures and animation.gif written to {dir_hint}", r.pictures());
    }
}
