"""Benchmark families: many deals written in one model language with their labels and an index,
named and compressed as that language's competition expects (`gen FORMAT --deals SPEC -o DIR`)."""
