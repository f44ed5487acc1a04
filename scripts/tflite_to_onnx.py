#!/usr/bin/env python3
"""Converts MediaPipe's selfie segmentation model (selfie_segmentation.tflite) to ONNX.

Used by scripts/fetch-segmentation-model.sh; written for this one model (MediaPipe selfie
segmentation, Apache-2.0, from the PyPI wheel mediapipe==0.10.14), so that OpenCV 4.6's DNN
module (cv::dnn::readNetFromONNX), which cannot read .tflite files, can run it.

The ONNX model it writes:
  input  "input": float32 NCHW 1x3x256x256, RGB (not BGR), values in [0, 1] (pixel / 255),
                  no mean subtraction. From OpenCV: cv::dnn::blobFromImage(bgr256, 1.0 / 255,
                  cv::Size(256, 256), cv::Scalar(), /*swapRB=*/true, /*crop=*/false).
  output "mask":  float32 NCHW 1x1x256x256, person probability in [0, 1] (the model applies
                  the sigmoid itself), row 0 at the top as in the input.
The input and output sizes are read from the .tflite file. The landscape variant
(selfie_segmentation_landscape.tflite, 144x256) is not supported: it uses MEAN.

The TFLite graph is NHWC; the ONNX graph is NCHW throughout (opset 11, ONNX IR version 6),
built from these TFLite operators only:
  DEQUANTIZE (of constant fp16 weights)  folded into float32 initializers
  CONV_2D                                Conv (weights OHWI -> OIHW)
  DEPTHWISE_CONV_2D                      Conv with group = input channels (1HWC -> C1HW)
  custom Convolution2DTransposeBias      ConvTranspose with bias (weights OHWI -> IOHW)
  AVERAGE_POOL_2D                        GlobalAveragePool when the window covers the whole
                                         input, else AveragePool (count_include_pad = 0)
  HARD_SWISH                             x * HardSigmoid(x; alpha = 1/6, beta = 1/2)
  LOGISTIC / RELU                        Sigmoid / Relu
  ADD / MUL                              Add / Mul (4-D operands, broadcast as in TFLite)
  RESIZE_BILINEAR                        Resize, mode linear, coordinate transformation mode
                                         from the op's align_corners / half_pixel_centers
Anything else (another operator, a fused activation other than NONE/RELU, quantized
tensors, dilated or grouped convolution, constant ADD/MUL operands) stops the conversion
with an error naming it, rather than producing a wrong model.

Padding is made explicit (ONNX pads), computed as TFLite does: SAME pads
total = max(0, (out - 1) * stride + kernel - in) with total // 2 before and the rest after
(the extra pixel goes at the end); VALID pads nothing. Every computed output size is
checked against the shape recorded in the .tflite file.

Convolution2DTransposeBias is MediaPipe's transposed convolution with a bias input. Its
custom options are a raw C struct TfLiteTransposeConvParams { int32 padding; int32
stride_width; int32 stride_height; } (padding 1 = SAME, 2 = VALID, as TfLitePadding in
TFLite's C API, which differs from the flatbuffer enum where SAME = 0 and VALID = 1); for
SAME it pads total = max(0, kernel - (in - 1) % stride - 1), total // 2 at the start and
the rest at the end, and the output is stride * (in - 1) + kernel - total. In this model it
is padding SAME, stride 2x2, a 2x2 kernel, so no padding: 128x128x16 -> 256x256x1.

Needs the PyPI packages tflite (flatbuffer reader), onnx and numpy; the versions are pinned
in scripts/fetch-segmentation-model.sh. With those versions the output is byte-for-byte
reproducible.

Usage: tflite_to_onnx.py [-v] IN.tflite OUT.onnx
"""

import argparse
import hashlib
import sys

try:
    import numpy as np
    import onnx
    import tflite
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:  # pragma: no cover - depends on the environment
    sys.exit(f"tflite_to_onnx: error: {e}; needs the PyPI packages tflite, onnx and numpy "
             "(scripts/fetch-segmentation-model.sh installs pinned versions in a temporary folder)")

OPSET = 11
IR_VERSION = 6  # the IR version that goes with opset 11; OpenCV 4.6 reads it

# NHWC -> NCHW for activations; OHWI -> OIHW for convolution weights.
NHWC_TO_NCHW = (0, 3, 1, 2)

BUILTIN_NAMES = {v: k for k, v in vars(tflite.BuiltinOperator).items()
                 if not k.startswith("_") and isinstance(v, int)}
TENSOR_TYPE_NAMES = {v: k for k, v in vars(tflite.TensorType).items()
                     if not k.startswith("_") and isinstance(v, int)}
NUMPY_DTYPES = {
    tflite.TensorType.FLOAT32: np.dtype("<f4"),
    tflite.TensorType.FLOAT16: np.dtype("<f2"),
    tflite.TensorType.INT32: np.dtype("<i4"),
    tflite.TensorType.INT64: np.dtype("<i8"),
}

# TfLitePadding (C API), as used in MediaPipe's raw custom options.
C_PADDING_SAME = 1
C_PADDING_VALID = 2

CUSTOM_TRANSPOSE_CONV = "Convolution2DTransposeBias"


class ConversionError(Exception):
    pass


def windowed_padding(size, kernel, stride, dilation, same, what):
    """TFLite's output size and (before, after) padding for one spatial axis of a
    convolution or pooling window (tensorflow/lite/kernels/padding.h)."""
    effective = (kernel - 1) * dilation + 1
    if same:
        out = (size + stride - 1) // stride
        total = max(0, (out - 1) * stride + effective - size)
    else:
        out = (size - effective + stride) // stride
        total = 0
    if out <= 0:
        raise ConversionError(f"{what}: window {kernel} does not fit input size {size}")
    return out, total // 2, total - total // 2


class Converter:
    def __init__(self, data):
        self.data = data
        self.model = tflite.Model.GetRootAsModel(data, 0)
        if self.model.SubgraphsLength() != 1:
            raise ConversionError(f"expected 1 subgraph, found {self.model.SubgraphsLength()}")
        self.graph = self.model.Subgraphs(0)
        self.nodes = []
        self.initializers = []
        self.constants = {}  # tflite tensor index -> numpy array (folded constants)
        self.onnx_names = {}  # tflite tensor index -> ONNX value name (NCHW activations)
        self.used_names = set()
        self.node_names = set()
        self.counts = {}
        self.output_index = None

    # ---- tensors -------------------------------------------------------------------

    def tensor(self, index):
        return self.graph.Tensors(index)

    def tensor_name(self, index):
        return self.tensor(index).Name().decode("utf-8", "replace")

    def shape(self, index):
        t = self.tensor(index)
        return [int(d) for d in t.ShapeAsNumpy()] if t.ShapeLength() else []

    def describe(self, index):
        t = self.tensor(index)
        return (f"tensor {index} '{self.tensor_name(index)}' "
                f"({TENSOR_TYPE_NAMES.get(t.Type(), t.Type())} {self.shape(index)})")

    def raw_buffer(self, index):
        t = self.tensor(index)
        buf = self.model.Buffers(t.Buffer())
        offset = buf.Offset() if hasattr(buf, "Offset") else 0
        if offset > 1:  # data stored after the flatbuffer (models > 2 GB)
            return self.data[offset:offset + buf.Size()]
        if buf.DataLength() == 0:
            return None
        return buf.DataAsNumpy().tobytes()

    def check_not_quantized(self, index):
        q = self.tensor(index).Quantization()
        if q is not None and (q.ScaleLength() > 0 or q.ZeroPointLength() > 0):
            raise ConversionError(f"{self.describe(index)} is quantized; not supported")

    def constant(self, index, what):
        """The value of a constant tensor (a buffer, or a folded DEQUANTIZE output)."""
        if index in self.constants:
            return self.constants[index]
        raw = self.raw_buffer(index)
        if raw is None:
            raise ConversionError(f"{what}: {self.describe(index)} is not a constant")
        t = self.tensor(index)
        dtype = NUMPY_DTYPES.get(t.Type())
        if dtype is None:
            raise ConversionError(f"{what}: {self.describe(index)} has an unsupported type")
        self.check_not_quantized(index)
        value = np.frombuffer(raw, dtype=dtype).reshape(self.shape(index))
        self.constants[index] = value
        return value

    def float_constant(self, index, what):
        value = self.constant(index, what)
        if value.dtype != np.float32:
            raise ConversionError(f"{what}: {self.describe(index)} is {value.dtype}, expected float32 "
                                  "(fp16 weights must come through DEQUANTIZE)")
        return value

    def unique(self, name):
        base = "".join(c if c.isalnum() or c in "_./:-" else "_" for c in name) or "t"
        candidate, n = base, 1
        while candidate in self.used_names:
            n += 1
            candidate = f"{base}_{n}"
        self.used_names.add(candidate)
        return candidate

    def add_initializer(self, array, name):
        name = self.unique(name)
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def activation(self, index, what):
        """ONNX name of a (non-constant) 4-D activation tensor, in NCHW."""
        if index not in self.onnx_names:
            if index in self.constants or self.raw_buffer(index) is not None:
                raise ConversionError(f"{what}: constant operand {self.describe(index)} is not supported")
            raise ConversionError(f"{what}: {self.describe(index)} is used before it is computed")
        return self.onnx_names[index]

    def define(self, index, what):
        """Name for an op's output tensor; checks it is a 4-D float32 activation."""
        t = self.tensor(index)
        if t.Type() != tflite.TensorType.FLOAT32 or len(self.shape(index)) != 4:
            raise ConversionError(f"{what}: output {self.describe(index)} is not a 4-D float32 tensor")
        self.check_not_quantized(index)
        if index in self.onnx_names:
            raise ConversionError(f"{what}: {self.describe(index)} is written twice")
        if index == self.output_index:
            name = "mask"
            self.used_names.add(name)
        else:
            name = self.unique(self.tensor_name(index))
        self.onnx_names[index] = name
        return name

    def node(self, op_type, inputs, outputs, name, **attrs):
        # Node names have their own namespace; keep them unique too.
        node_name, n = name, 1
        while node_name in self.node_names:
            n += 1
            node_name = f"{name}_{n}"
        self.node_names.add(node_name)
        self.nodes.append(helper.make_node(op_type, inputs, outputs, name=node_name, **attrs))

    # ---- operators -----------------------------------------------------------------

    def options(self, op, cls, what):
        table = op.BuiltinOptions()
        if table is None:
            raise ConversionError(f"{what}: missing builtin options")
        opts = cls()
        opts.Init(table.Bytes, table.Pos)
        return opts

    def emit(self, activation_code, out_index, what, op_type, inputs, **attrs):
        """Emits op_type writing TFLite tensor out_index, followed by the op's fused
        activation when it has one."""
        out = self.define(out_index, what)
        name = self.tensor_name(out_index)
        if activation_code == tflite.ActivationFunctionType.NONE:
            self.node(op_type, inputs, [out], name, **attrs)
        elif activation_code == tflite.ActivationFunctionType.RELU:
            inner = self.unique(out + "/pre_relu")
            self.node(op_type, inputs, [inner], name, **attrs)
            self.node("Relu", [inner], [out], name + "/relu")
        else:
            raise ConversionError(f"{what}: fused activation {activation_code} is not supported (only NONE and RELU)")

    def convert_conv(self, op, ins, outs, what, depthwise):
        if len(ins) not in (2, 3) or len(outs) != 1:
            raise ConversionError(f"{what}: expected 2 or 3 inputs and 1 output")
        cls = tflite.DepthwiseConv2DOptions if depthwise else tflite.Conv2DOptions
        opts = self.options(op, cls, what)
        if opts.DilationHFactor() != 1 or opts.DilationWFactor() != 1:
            raise ConversionError(f"{what}: dilated convolution is not supported")
        x = self.activation(ins[0], what)
        n, h, w, cin = self.shape(ins[0])
        weights = self.float_constant(ins[1], what)
        if weights.ndim != 4:
            raise ConversionError(f"{what}: weights {self.describe(ins[1])} are not 4-D")
        if depthwise:
            one, kh, kw, cout = weights.shape
            if one != 1 or cout % cin != 0:
                raise ConversionError(f"{what}: depthwise weights {list(weights.shape)} do not fit {cin} input channels")
            group = cin
            w_onnx = weights.reshape(kh, kw, cout).transpose(2, 0, 1)[:, None, :, :]
        else:
            cout, kh, kw, wcin = weights.shape
            if wcin != cin:
                raise ConversionError(f"{what}: grouped convolution (weights {list(weights.shape)}, "
                                      f"{cin} input channels) is not supported")
            group = 1
            w_onnx = weights.transpose(NHWC_TO_NCHW)
        same = opts.Padding() == tflite.Padding.SAME
        if opts.Padding() not in (tflite.Padding.SAME, tflite.Padding.VALID):
            raise ConversionError(f"{what}: unknown padding {opts.Padding()}")
        sh, sw = opts.StrideH(), opts.StrideW()
        oh, top, bottom = windowed_padding(h, kh, sh, 1, same, what)
        ow, left, right = windowed_padding(w, kw, sw, 1, same, what)
        if self.shape(outs[0]) != [n, oh, ow, cout]:
            raise ConversionError(f"{what}: computed output {[n, oh, ow, cout]} but the model says {self.shape(outs[0])}")
        inputs = [x, self.add_initializer(w_onnx, self.tensor_name(ins[1]))]
        if len(ins) == 3 and ins[2] >= 0:
            bias = self.float_constant(ins[2], what)
            if bias.shape != (cout,):
                raise ConversionError(f"{what}: bias {self.describe(ins[2])} does not match {cout} output channels")
            inputs.append(self.add_initializer(bias, self.tensor_name(ins[2])))
        self.emit(opts.FusedActivationFunction(), outs[0], what, "Conv", inputs,
                  kernel_shape=[kh, kw], strides=[sh, sw], dilations=[1, 1],
                  pads=[top, left, bottom, right], group=group)

    def convert_transpose_conv_bias(self, op, ins, outs, what):
        if len(ins) != 3 or len(outs) != 1:
            raise ConversionError(f"{what}: expected 3 inputs (input, weights, bias) and 1 output")
        raw = op.CustomOptionsAsNumpy().tobytes() if op.CustomOptionsLength() else b""
        if len(raw) != 12:
            raise ConversionError(f"{what}: expected 12 bytes of custom options "
                                  f"(padding, stride_width, stride_height), found {len(raw)}")
        padding, sw, sh = (int(v) for v in np.frombuffer(raw, dtype="<i4"))
        if padding not in (C_PADDING_SAME, C_PADDING_VALID) or sw < 1 or sh < 1:
            raise ConversionError(f"{what}: unexpected custom options padding={padding} "
                                  f"stride_width={sw} stride_height={sh}")
        x = self.activation(ins[0], what)
        n, h, w, cin = self.shape(ins[0])
        weights = self.float_constant(ins[1], what)  # OHWI
        if weights.ndim != 4 or weights.shape[3] != cin:
            raise ConversionError(f"{what}: weights {self.describe(ins[1])} do not fit {cin} input channels")
        cout, kh, kw, _ = weights.shape
        bias = self.float_constant(ins[2], what)
        if bias.shape != (cout,):
            raise ConversionError(f"{what}: bias {self.describe(ins[2])} does not match {cout} output channels")

        def axis(size, kernel, stride):
            total = max(0, kernel - (size - 1) % stride - 1) if padding == C_PADDING_SAME else 0
            return stride * (size - 1) + kernel - total, total // 2, total - total // 2

        oh, top, bottom = axis(h, kh, sh)
        ow, left, right = axis(w, kw, sw)
        if self.shape(outs[0]) != [n, oh, ow, cout]:
            raise ConversionError(f"{what}: computed output {[n, oh, ow, cout]} but the model says {self.shape(outs[0])}")
        out = self.define(outs[0], what)
        self.node("ConvTranspose",
                  [x, self.add_initializer(weights.transpose(3, 0, 1, 2), self.tensor_name(ins[1])),
                   self.add_initializer(bias, self.tensor_name(ins[2]))],
                  [out], self.tensor_name(outs[0]),
                  kernel_shape=[kh, kw], strides=[sh, sw], dilations=[1, 1],
                  pads=[top, left, bottom, right], group=1)

    def convert_average_pool(self, op, ins, outs, what):
        opts = self.options(op, tflite.Pool2DOptions, what)
        x = self.activation(ins[0], what)
        n, h, w, c = self.shape(ins[0])
        kh, kw = opts.FilterHeight(), opts.FilterWidth()
        sh, sw = opts.StrideH(), opts.StrideW()
        if opts.Padding() not in (tflite.Padding.SAME, tflite.Padding.VALID):
            raise ConversionError(f"{what}: unknown padding {opts.Padding()}")
        same = opts.Padding() == tflite.Padding.SAME
        oh, top, bottom = windowed_padding(h, kh, sh, 1, same, what)
        ow, left, right = windowed_padding(w, kw, sw, 1, same, what)
        if self.shape(outs[0]) != [n, oh, ow, c]:
            raise ConversionError(f"{what}: computed output {[n, oh, ow, c]} but the model says {self.shape(outs[0])}")
        if (kh, kw) == (h, w) and (oh, ow) == (1, 1) and top == left == bottom == right == 0:
            self.emit(opts.FusedActivationFunction(), outs[0], what, "GlobalAveragePool", [x])
        else:
            self.emit(opts.FusedActivationFunction(), outs[0], what, "AveragePool", [x],
                      kernel_shape=[kh, kw], strides=[sh, sw],
                      pads=[top, left, bottom, right], count_include_pad=0)

    def convert_binary(self, op, ins, outs, what, onnx_op, options_cls):
        if len(ins) != 2 or len(outs) != 1:
            raise ConversionError(f"{what}: expected 2 inputs and 1 output")
        opts = self.options(op, options_cls, what)
        a, b = self.activation(ins[0], what), self.activation(ins[1], what)
        sa, sb = self.shape(ins[0]), self.shape(ins[1])
        so = self.shape(outs[0])
        if len(sa) != 4 or len(sb) != 4:
            raise ConversionError(f"{what}: operands {sa} and {sb} are not both 4-D")
        for da, db, do in zip(sa, sb, so):
            if do != max(da, db) or da not in (1, do) or db not in (1, do):
                raise ConversionError(f"{what}: shapes {sa} and {sb} do not broadcast to {so}")
        self.emit(opts.FusedActivationFunction(), outs[0], what, onnx_op, [a, b])

    def convert_unary(self, ins, outs, what, onnx_op):
        if len(ins) != 1 or len(outs) != 1:
            raise ConversionError(f"{what}: expected 1 input and 1 output")
        x = self.activation(ins[0], what)
        out = self.define(outs[0], what)
        self.node(onnx_op, [x], [out], self.tensor_name(outs[0]))

    def convert_hard_swish(self, ins, outs, what):
        # TFLite: x * relu6(x + 3) / 6 == x * clip(x / 6 + 1 / 2, 0, 1) == x * HardSigmoid(x).
        if len(ins) != 1 or len(outs) != 1:
            raise ConversionError(f"{what}: expected 1 input and 1 output")
        x = self.activation(ins[0], what)
        out = self.define(outs[0], what)
        gate = self.unique(out + "/hard_sigmoid")
        self.node("HardSigmoid", [x], [gate], self.tensor_name(outs[0]) + "/hard_sigmoid", alpha=1.0 / 6.0, beta=0.5)
        self.node("Mul", [x, gate], [out], self.tensor_name(outs[0]))

    def convert_resize_bilinear(self, op, ins, outs, what):
        if len(ins) != 2 or len(outs) != 1:
            raise ConversionError(f"{what}: expected 2 inputs (input, size) and 1 output")
        opts = self.options(op, tflite.ResizeBilinearOptions, what)
        align, half = bool(opts.AlignCorners()), bool(opts.HalfPixelCenters())
        if align and half:
            raise ConversionError(f"{what}: align_corners and half_pixel_centers are both set")
        mode = "align_corners" if align else "half_pixel" if half else "asymmetric"
        x = self.activation(ins[0], what)
        n, h, w, c = self.shape(ins[0])
        size = self.constant(ins[1], what)
        if size.dtype != np.int32 or size.shape != (2,):
            raise ConversionError(f"{what}: size {self.describe(ins[1])} is not 2 int32 values")
        oh, ow = (int(v) for v in size)
        if self.shape(outs[0]) != [n, oh, ow, c]:
            raise ConversionError(f"{what}: size {[oh, ow]} does not match the output {self.shape(outs[0])}")
        out = self.define(outs[0], what)
        base = self.tensor_name(outs[0])
        roi = self.add_initializer(np.zeros(0, np.float32), base + "/roi")
        scales = self.add_initializer(np.zeros(0, np.float32), base + "/scales")
        sizes = self.add_initializer(np.array([n, c, oh, ow], np.int64), base + "/sizes")
        self.node("Resize", [x, roi, scales, sizes], [out], base,
                  mode="linear", coordinate_transformation_mode=mode)

    def convert_dequantize(self, ins, outs, what):
        if len(ins) != 1 or len(outs) != 1:
            raise ConversionError(f"{what}: expected 1 input and 1 output")
        t = self.tensor(ins[0])
        if t.Type() != tflite.TensorType.FLOAT16:
            raise ConversionError(f"{what}: only fp16 -> fp32 is supported, input is {self.describe(ins[0])}")
        if self.tensor(outs[0]).Type() != tflite.TensorType.FLOAT32:
            raise ConversionError(f"{what}: output {self.describe(outs[0])} is not float32")
        value = self.constant(ins[0], what)  # fails unless the fp16 tensor is a constant
        self.constants[outs[0]] = value.astype(np.float32)

    # ---- graph ---------------------------------------------------------------------

    def op_name(self, op):
        code = self.model.OperatorCodes(op.OpcodeIndex())
        # builtin_code is an int32 since schema 3a; older files only fill the deprecated int8.
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        if builtin == tflite.BuiltinOperator.CUSTOM:
            custom = code.CustomCode()
            return "custom " + (custom.decode("utf-8", "replace") if custom else "?")
        return BUILTIN_NAMES.get(builtin, f"builtin {builtin}")

    def convert(self):
        g = self.graph
        if g.InputsLength() != 1 or g.OutputsLength() != 1:
            raise ConversionError(f"expected 1 input and 1 output, found {g.InputsLength()} and {g.OutputsLength()}")
        in_index, out_index = int(g.Inputs(0)), int(g.Outputs(0))
        in_shape = self.shape(in_index)
        if self.tensor(in_index).Type() != tflite.TensorType.FLOAT32 or len(in_shape) != 4 or in_shape[0] != 1:
            raise ConversionError(f"input {self.describe(in_index)} is not a float32 1xHxWxC tensor")
        self.check_not_quantized(in_index)
        self.onnx_names[in_index] = "input"
        self.used_names.update(("input", "mask"))
        self.output_index = out_index

        for i in range(g.OperatorsLength()):
            op = g.Operators(i)
            name = self.op_name(op)
            ins = [int(v) for v in op.InputsAsNumpy()] if op.InputsLength() else []
            outs = [int(v) for v in op.OutputsAsNumpy()] if op.OutputsLength() else []
            what = f"operator {i} ({name})"
            self.counts[name] = self.counts.get(name, 0) + 1
            if name == "DEQUANTIZE":
                self.convert_dequantize(ins, outs, what)
            elif name == "CONV_2D":
                self.convert_conv(op, ins, outs, what, depthwise=False)
            elif name == "DEPTHWISE_CONV_2D":
                self.convert_conv(op, ins, outs, what, depthwise=True)
            elif name == "custom " + CUSTOM_TRANSPOSE_CONV:
                self.convert_transpose_conv_bias(op, ins, outs, what)
            elif name == "AVERAGE_POOL_2D":
                self.convert_average_pool(op, ins, outs, what)
            elif name == "ADD":
                self.convert_binary(op, ins, outs, what, "Add", tflite.AddOptions)
            elif name == "MUL":
                self.convert_binary(op, ins, outs, what, "Mul", tflite.MulOptions)
            elif name == "HARD_SWISH":
                self.convert_hard_swish(ins, outs, what)
            elif name == "LOGISTIC":
                self.convert_unary(ins, outs, what, "Sigmoid")
            elif name == "RELU":
                self.convert_unary(ins, outs, what, "Relu")
            elif name == "RESIZE_BILINEAR":
                self.convert_resize_bilinear(op, ins, outs, what)
            else:
                raise ConversionError(f"{what}: operator not supported by this converter "
                                      "(it knows only the operators of MediaPipe's selfie segmentation model)")

        if out_index not in self.onnx_names:
            raise ConversionError(f"the model output {self.describe(out_index)} is never computed")
        out_shape = self.shape(out_index)
        n, h, w, c = out_shape
        inputs = [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                                [in_shape[0], in_shape[3], in_shape[1], in_shape[2]])]
        outputs = [helper.make_tensor_value_info("mask", TensorProto.FLOAT, [n, c, h, w])]
        graph = helper.make_graph(self.nodes, "selfie_segmentation", inputs, outputs, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="reel scripts/tflite_to_onnx.py", producer_version="1")
        model.ir_version = IR_VERSION
        model.doc_string = (
            "MediaPipe selfie segmentation (Apache-2.0, Google LLC), converted from a .tflite with "
            f"SHA-256 {hashlib.sha256(self.data).hexdigest()}. Input 'input': float32 NCHW "
            f"1x3x{in_shape[1]}x{in_shape[2]} RGB in [0,1]. Output 'mask': float32 NCHW "
            f"1x1x{h}x{w} person probability in [0,1].")
        onnx.checker.check_model(model)
        return model


def main(argv=None):
    parser = argparse.ArgumentParser(description="Convert MediaPipe's selfie_segmentation.tflite to ONNX (opset 11, NCHW).")
    parser.add_argument("tflite", help="input .tflite file")
    parser.add_argument("onnx", help="output .onnx file")
    parser.add_argument("-v", "--verbose", action="store_true", help="print a summary of the conversion")
    args = parser.parse_args(argv)
    try:
        with open(args.tflite, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit(f"tflite_to_onnx: error: cannot read {args.tflite}: {e.strerror}")
    try:
        converter = Converter(data)
        model = converter.convert()
    except ConversionError as e:
        sys.exit(f"tflite_to_onnx: error: {args.tflite}: {e}")
    except Exception as e:  # a malformed file surfaces as a flatbuffers/numpy error
        sys.exit(f"tflite_to_onnx: error: {args.tflite} could not be converted: {type(e).__name__}: {e}")
    payload = model.SerializeToString()
    try:
        with open(args.onnx, "wb") as f:
            f.write(payload)
    except OSError as e:
        sys.exit(f"tflite_to_onnx: error: cannot write {args.onnx}: {e.strerror}")
    if args.verbose:
        ops = ", ".join(f"{k} {v}" for k, v in sorted(converter.counts.items()))
        onnx_ops = {}
        for node in model.graph.node:
            onnx_ops[node.op_type] = onnx_ops.get(node.op_type, 0) + 1
        print(f"tflite_to_onnx: TFLite operators: {ops}", file=sys.stderr)
        print("tflite_to_onnx: ONNX nodes: " + ", ".join(f"{k} {v}" for k, v in sorted(onnx_ops.items())), file=sys.stderr)
        print(f"tflite_to_onnx: wrote {args.onnx} ({len(payload)} bytes, opset {OPSET})", file=sys.stderr)


if __name__ == "__main__":
    main()
