// @ts-check
// The page's one rendering binding: htm tagged templates over Preact.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
