//! The committed sound files (assets/sounds, made by scripts/make-sounds.sh), embedded in
//! the program so the desktop and the browser play them without fetching files. Generated.

/// Each sound: its file stem (`Cue::file_stem`, or `music`) and its Ogg Vorbis bytes.
pub const SOUND_FILES: &[(&str, &[u8])] = &[
    ("burn", include_bytes!("../../../assets/sounds/burn.ogg")),
    ("capture-1", include_bytes!("../../../assets/sounds/capture-1.ogg")),
    ("capture-10", include_bytes!("../../../assets/sounds/capture-10.ogg")),
    ("capture-11", include_bytes!("../../../assets/sounds/capture-11.ogg")),
    ("capture-12", include_bytes!("../../../assets/sounds/capture-12.ogg")),
    ("capture-2", include_bytes!("../../../assets/sounds/capture-2.ogg")),
    ("capture-3", include_bytes!("../../../assets/sounds/capture-3.ogg")),
    ("capture-4", include_bytes!("../../../assets/sounds/capture-4.ogg")),
    ("capture-5", include_bytes!("../../../assets/sounds/capture-5.ogg")),
    ("capture-6", include_bytes!("../../../assets/sounds/capture-6.ogg")),
    ("capture-7", include_bytes!("../../../assets/sounds/capture-7.ogg")),
    ("capture-8", include_bytes!("../../../assets/sounds/capture-8.ogg")),
    ("capture-9", include_bytes!("../../../assets/sounds/capture-9.ogg")),
    ("cascade", include_bytes!("../../../assets/sounds/cascade.ogg")),
    ("draw", include_bytes!("../../../assets/sounds/draw.ogg")),
    ("hop", include_bytes!("../../../assets/sounds/hop.ogg")),
    ("illegal", include_bytes!("../../../assets/sounds/illegal.ogg")),
    ("lose", include_bytes!("../../../assets/sounds/lose.ogg")),
    ("music", include_bytes!("../../../assets/sounds/music.ogg")),
    ("pie", include_bytes!("../../../assets/sounds/pie.ogg")),
    ("place", include_bytes!("../../../assets/sounds/place.ogg")),
    ("stack", include_bytes!("../../../assets/sounds/stack.ogg")),
    ("swap", include_bytes!("../../../assets/sounds/swap.ogg")),
    ("turn-change", include_bytes!("../../../assets/sounds/turn-change.ogg")),
    ("ui-move", include_bytes!("../../../assets/sounds/ui-move.ogg")),
    ("ui-select", include_bytes!("../../../assets/sounds/ui-select.ogg")),
    ("win", include_bytes!("../../../assets/sounds/win.ogg")),
];
