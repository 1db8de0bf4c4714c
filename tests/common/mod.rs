//! Headless app harness for the tests: the app's own public harness (`stoneyard::app::testing`).
#![allow(unused_imports)]

pub use stoneyard::app::testing::{
    assert_projection_matches, headless_app, headless_app_with_looks, key, press, screen, start_by_keys, start_row,
};
