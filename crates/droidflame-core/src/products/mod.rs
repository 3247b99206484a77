//! Products.
