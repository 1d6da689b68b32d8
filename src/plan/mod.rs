//! Solve for the newest stack that runs on every given host, and write it out.
