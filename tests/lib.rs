//! Nothing here: the tests are in golden.rs (and browser/ from the web issue on).
