package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// catalog writes generated/catalog/zz_generated.catalog.go: the model
// catalogue's presets and models as table values in the spec's order, with
// switch lookups by name. A model without a catalogue (one built without
// specs/models) writes no file.
func (o Options) catalog(m *model.Model) ([]File, error) {
	c := m.Catalog
	if c == nil {
		return nil, nil
	}
	if len(c.Models) == 0 {
		return nil, fmt.Errorf("the catalogue has no models")
	}
	dir, importPath := o.goPackage("catalog")
	f := newGoFile(importPath, "catalog", []string{c.Path})
	packageComment(f, "Package catalog is the model catalogue: every model the runtime serves\n"+
		"with its card, and the canonical preset texts. It is generated from\n"+
		"specs/models: edit the spec, not this package.\n\n"+
		"Every value shares its slices with the package: callers must not\n"+
		"modify them.")
	fileComment(f, "SourceSHA256 is the sha256 of "+c.Path+", the file this package was generated from.")
	f.Const().Id("SourceSHA256").Op("=").Lit(c.SHA256)

	presetRows := make([]jen.Code, len(c.Presets))
	presetKeys := make([][]string, len(c.Presets))
	for i, p := range c.Presets {
		presetRows[i] = presetLit(p)
		presetKeys[i] = []string{p.Name}
	}
	f.Var().Id("presets").Op("=").Add(sliceLit(tableType("Preset"), presetRows))
	modelRows := make([]jen.Code, len(c.Models))
	modelKeys := make([][]string, len(c.Models))
	for i, x := range c.Models {
		modelRows[i] = modelLit(x)
		modelKeys[i] = []string{x.Name}
	}
	f.Var().Id("models").Op("=").Add(sliceLit(tableType("Model"), modelRows))

	f.Add(listFunc("Models returns every model, in the catalogue's order.", "Models", "Model", "models"))
	fn, err := lookupFunc("Model returns the model named name, as a request's model member names it.", "Model",
		[]jen.Code{jen.Id("name").String()}, jen.Id("name"), tableType("Model"), "models", modelKeys)
	if err != nil {
		return nil, err
	}
	f.Add(fn)
	f.Add(listFunc("Presets returns every canonical preset text, in the catalogue's order.", "Presets", "Preset", "presets"))
	fn, err = lookupFunc("Preset returns the canonical text of the preset named name.", "Preset",
		[]jen.Code{jen.Id("name").String()}, jen.Id("name"), tableType("Preset"), "presets", presetKeys)
	if err != nil {
		return nil, err
	}
	f.Add(fn)
	file, err := render(dir+"/zz_generated.catalog.go", f)
	return []File{file}, err
}

// listFunc renders func name() []table.T { return append([]table.T(nil), table...) }.
func listFunc(doc, name, typeName, tableName string) jen.Code {
	return docComment(doc + " The slice is a fresh copy.").Line().
		Func().Id(name).Params().Index().Add(tableType(typeName)).Block(
		jen.Return(jen.Append(jen.Index().Add(tableType(typeName)).Parens(jen.Nil()), jen.Id(tableName).Op("..."))),
	)
}

// blockLit renders {Name: v, ...} with one member a line, skipping nil
// values, for rows too wide for one line.
func blockLit(typeName string, pairs ...pair) *jen.Statement {
	var lit *jen.Statement
	if typeName != "" {
		lit = tableType(typeName)
	} else {
		lit = jen.Null()
	}
	return lit.ValuesFunc(func(g *jen.Group) {
		n := 0
		for _, p := range pairs {
			if p.value != nil {
				g.Line().Id(p.name).Op(":").Add(p.value)
				n++
			}
		}
		if n > 0 {
			g.Line()
		}
	})
}

func presetLit(p table.Preset) jen.Code {
	var criteria jen.Code
	if len(p.Criteria) > 0 {
		rows := make([]jen.Code, len(p.Criteria))
		for i, c := range p.Criteria {
			rows[i] = structLit(pair{"Key", jen.Lit(c.Key)}, pair{"Text", jen.Lit(c.Text)})
		}
		criteria = sliceLit(tableType("PresetCriterion"), rows)
	}
	var levels jen.Code
	if len(p.Levels) > 0 {
		rows := make([]jen.Code, len(p.Levels))
		for i, l := range p.Levels {
			rows[i] = jen.Lit(l)
		}
		levels = sliceLit(jen.String(), rows)
	}
	return blockLit("",
		pair{"Name", jen.Lit(p.Name)},
		pair{"Type", jen.Lit(string(p.Type))},
		pair{"Description", jen.Lit(p.Description)},
		pair{"Instructions", jen.Lit(p.Instructions)},
		pair{"Criteria", criteria},
		pair{"Levels", levels},
	)
}

func modelLit(x table.Model) jen.Code {
	return blockLit("",
		pair{"Name", jen.Lit(x.Name)},
		pair{"Family", jen.Lit(string(x.Family))},
		pair{"Description", jen.Lit(x.Description)},
		pair{"ReleaseDate", jen.Lit(x.ReleaseDate)},
		pair{"Revision", jen.Lit(x.Revision)},
		pair{"Card", cardLit(x.Card)},
	)
}

func cardLit(c table.Card) jen.Code {
	var presets jen.Code
	if len(c.Presets) > 0 {
		rows := make([]jen.Code, len(c.Presets))
		for i, p := range c.Presets {
			rows[i] = structLit(pair{"Name", jen.Lit(p.Name)}, pair{"Type", jen.Lit(string(p.Type))})
		}
		presets = sliceLit(tableType("CardPreset"), rows)
	}
	var rates jen.Code
	if len(c.TrackRates) > 0 {
		rates = jen.Index().Int64().ValuesFunc(func(g *jen.Group) {
			for _, r := range c.TrackRates {
				g.Lit(int(r))
			}
		})
	}
	return blockLit("Card",
		pair{"QuestionTypes", questionTypes(c.QuestionTypes)},
		pair{"Presets", presets},
		pair{"Modalities", typedList("Modality", c.Modalities)},
		pair{"Limits", limitsLit(c.Limits)},
		pair{"SpanHeads", strList(c.SpanHeads)},
		pair{"DecisionAdapter", optBool(c.DecisionAdapter)},
		pair{"RoleAware", optBool(c.RoleAware)},
		pair{"Over", jen.Lit(string(c.Over))},
		pair{"Abstain", optBool(c.Abstain)},
		pair{"SetThreshold", optFloat(c.SetThreshold)},
		pair{"SpanThreshold", optFloat(c.SpanThreshold)},
		pair{"TrackRates", rates},
		pair{"PlaceholdersInQuestions", optBool(c.PlaceholdersInQuestions)},
		pair{"Precision", optStr(c.Precision)},
		pair{"Numerics", optStr(c.Numerics)},
	)
}

func limitsLit(l table.CardLimits) jen.Code {
	var image, video jen.Code
	if l.Image != (table.ImageLimits{}) {
		i := l.Image
		image = blockLit("ImageLimits",
			pair{"MaxCount", optInt(i.MaxCount)}, pair{"MinSide", optInt64(i.MinSide)}, pair{"MaxSide", optInt64(i.MaxSide)},
			pair{"MinPixels", optInt64(i.MinPixels)}, pair{"MaxPixels", optInt64(i.MaxPixels)},
			pair{"MaxBytes", optInt64(i.MaxBytes)}, pair{"Tokens", optInt64(i.Tokens)})
	}
	if l.Video != (table.VideoLimits{}) {
		v := l.Video
		video = blockLit("VideoLimits",
			pair{"MaxCount", optInt(v.MaxCount)}, pair{"MaxBytes", optInt64(v.MaxBytes)},
			pair{"MaxSeconds", optInt64(v.MaxSeconds)}, pair{"Tokens", optInt64(v.Tokens)})
	}
	return blockLit("CardLimits",
		pair{"MaxInputTokens", optInt64(l.MaxInputTokens)},
		pair{"LongContextMaxInputTokens", optInt64(l.LongContextMaxInputTokens)},
		pair{"ScanBudget", optInt64(l.ScanBudget)},
		pair{"MaxScanBudget", optInt64(l.MaxScanBudget)},
		pair{"Choices", rangeLit(l.Choices)},
		pair{"Labels", rangeLit(l.Labels)},
		pair{"Levels", rangeLit(l.Levels)},
		pair{"Image", image},
		pair{"Video", video},
	)
}

func rangeLit(r table.CountRange) jen.Code {
	if r == (table.CountRange{}) {
		return nil
	}
	return tableType("CountRange").Add(structLit(pair{"Min", jen.Lit(r.Min)}, pair{"Max", jen.Lit(r.Max)}))
}

// optInt64 is an int64 member written as a plain literal, left out when zero.
func optInt64(n int64) jen.Code {
	if n == 0 {
		return nil
	}
	return jen.Lit(int(n))
}

// optFloat is a float member, left out when zero.
func optFloat(f float64) jen.Code {
	if f == 0 {
		return nil
	}
	return jen.Lit(f)
}
