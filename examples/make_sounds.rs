//! Writes every synthesised cue and the music loop as WAV files into a folder (the first
//! argument), to listen to them outside the game (which synthesises them at start-up).

use stoneyard::synth::{Cue, SAMPLE_RATE, render, render_music, wav_bytes};

/// Capture cues exist for sizes 1 to this (bigger captures use the last); the app agrees.
const CAPTURE_SIZES: u16 = 12;

fn main() -> std::io::Result<()> {
    let out = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "sounds-wav".to_string()));
    std::fs::create_dir_all(&out)?;
    for cue in Cue::all(CAPTURE_SIZES) {
        std::fs::write(out.join(format!("{}.wav", cue.file_stem())), wav_bytes(&render(cue), SAMPLE_RATE))?;
    }
    std::fs::write(out.join("music.wav"), wav_bytes(&render_music(), SAMPLE_RATE))?;
    println!("wrote {} files to {}", Cue::all(CAPTURE_SIZES).len() + 1, out.display());
    Ok(())
}
