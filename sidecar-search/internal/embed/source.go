package embed

import "github.com/opsboard/opsboard/shared/hub"

// Potion is the model2vec model the sidecar fetches when its model
// directory is empty: 256 dimensions, the index's size, about 30 MB. Its
// three files lie side by side in the model directory, as LoadModel2Vec
// reads them.
var Potion = hub.Repo{ID: "minishlab/potion-base-8M", Revision: "main", Files: []hub.File{
	{Remote: "model.safetensors"}, {Remote: "tokenizer.json"}, {Remote: "config.json"},
}}
